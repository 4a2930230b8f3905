/** The group introduction, banners, awards, promotions and category lists. */
import type { Award, Banner, Category, GroupIntroduction, Promotion, SubCategory } from '../demo-content-type.js';
import { html } from './helpers.js';

export const groupIntroduction: GroupIntroduction = {
  name: '明瞳眼科医疗集团',
  slogan: '守护光明，看见更好的未来',
  summary:
    '明瞳眼科医疗集团创立于 2004 年，总部位于上海，是一家以眼科专科诊疗为核心，集医疗、教学、科研与视光服务于一体的眼科医疗集团。集团在国内拥有 6 家眼科专科医院，并在澳大利亚悉尼设立明瞳澳洲眼科医院，为患者提供同质化、规范化的眼健康服务。',
  content: html([
    '明瞳眼科医疗集团创立于 2004 年，前身为上海徐汇区一家以屈光与白内障诊疗为主的眼科门诊部。二十年来，集团始终坚持“以患者为中心、以质量为生命”的办院理念，逐步发展为覆盖屈光、白内障、青光眼、眼底病、角膜病、小儿眼科与斜弱视、眼整形及视光服务的综合性眼科医疗集团。',
    '目前，集团在上海、北京、广州、成都、杭州、武汉设有 6 家眼科专科医院，开放床位 600 余张，拥有医护及技术人员 2000 余名，其中高级职称专家 180 余名。2020 年，集团在澳大利亚悉尼成立明瞳澳洲眼科医院，成为国内较早走出国门的眼科专科医疗机构之一。',
    '集团建立了统一的医疗质量管理体系和临床路径，各院区共享专家资源、病例讨论与远程会诊平台，确保患者无论在哪家医院就诊，都能获得同一标准的诊疗服务。集团各院区均配备全飞秒激光手术系统、准分子激光手术系统、光学相干断层扫描仪、超声乳化白内障手术系统等先进设备。',
    '在教学与科研方面，集团与多所医学院校共建眼科教学基地，承担住院医师规范化培训与继续医学教育任务，设有集团眼科研究院，围绕近视防控、眼底病早期筛查、角膜再生等方向开展临床研究，累计承担各级科研课题 90 余项，发表学术论文 600 余篇。',
    '面向未来，明瞳将继续秉承“守护光明，看见更好的未来”的使命，深耕眼科专科领域，推动优质眼科资源下沉基层，以专业、温暖的服务守护每一位患者的光明。',
  ]),
  logo: '/uploads/brand/logo.svg',
  image: '/uploads/brand/Group-Intro.jpeg',
  stats: [
    { value: '20+', label: '年专注眼科' },
    { value: '7', label: '家眼科医院' },
    { value: '2000+', label: '名医护及技术人员' },
    { value: '300万+', label: '人次年门诊量' },
  ],
  culture: [
    {
      title: '使命',
      text: '守护光明，让每一个人都能清晰、舒适、持久地看见世界。',
      icon: '/uploads/culture/mission.svg',
    },
    {
      title: '愿景',
      text: '成为患者信赖、同行尊重、员工自豪的国际化眼科医疗集团。',
      icon: '/uploads/culture/vision.svg',
    },
    {
      title: '核心价值观',
      text: '仁心、专业、创新、协作：以仁爱之心对待患者，以专业精神守护质量，以创新驱动发展，以协作成就团队。',
      icon: '/uploads/culture/values.svg',
    },
    {
      title: '服务理念',
      text: '以患者为中心，从预约、检查、诊疗到术后随访，提供全流程、可追溯的安心服务。',
      icon: '/uploads/culture/service.svg',
    },
  ],
  history: [
    { year: 2004, title: '集团创立', text: '首家眼科门诊部在上海徐汇区开诊，开展屈光矫正与白内障诊疗。' },
    { year: 2007, title: '上海明瞳眼科医院落成', text: '门诊部升级为眼科专科医院，开放住院病区与层流手术室。' },
    { year: 2010, title: '布局华北', text: '北京明瞳眼科医院开业，集团迈出跨区域发展的第一步。' },
    { year: 2012, title: '进入华南', text: '广州明瞳眼科医院开业，同年成立集团医疗质量管理委员会。' },
    { year: 2014, title: '扎根西南', text: '成都明瞳眼科医院开业，启动“光明乡村行”公益筛查项目。' },
    { year: 2016, title: '杭州院区开业', text: '杭州明瞳眼科医院开业，集团远程会诊平台正式上线。' },
    { year: 2018, title: '武汉院区开业', text: '武汉明瞳眼科医院开业，国内专科医院网络增至 6 家。' },
    { year: 2019, title: '成立眼科研究院', text: '集团眼科研究院成立，设立近视防控、眼底病与角膜病三个研究中心。' },
    { year: 2020, title: '走向国际', text: '明瞳澳洲眼科医院在悉尼开业，开启国际化发展新阶段。' },
    { year: 2022, title: '智慧医院建设', text: '集团全面推行电子病历与智能随访系统，患者可线上完成预约、缴费与报告查询。' },
    { year: 2023, title: '教学基地获批', text: '上海、北京两院获批眼科住院医师规范化培训基地。' },
    { year: 2024, title: '二十周年', text: '集团迎来创立二十周年，累计服务患者超过 3000 万人次。' },
  ],
};

export const banners: Banner[] = [
  {
    id: 1,
    title: '特色治疗 精准守护',
    subtitle: '屈光、白内障、青光眼、眼底病等八大特色专科，为不同年龄段患者提供个性化诊疗方案。',
    image: '/uploads/banners/Banner-Treatment.JPG',
    link: '/hzhf/tszl?id=5&name=特色治疗',
  },
  {
    id: 2,
    title: '名医汇聚 专家坐诊',
    subtitle: '集团百余位高级职称眼科专家，多院区联动会诊，让优质医疗资源触手可及。',
    image: '/uploads/banners/Banner-Experts.JPG',
    link: '/zjxz/index',
  },
  {
    id: 3,
    title: '连接世界 同一标准',
    subtitle: '明瞳澳洲眼科医院立足悉尼，与国内院区共享临床路径与质量标准。',
    image: '/uploads/banners/Banner-International.JPG',
    link: '/gjws/index',
  },
];

export const awards: Award[] = [
  { id: 1, year: 2024, title: '年度优秀眼科专科医疗集团', issuer: '全国眼科专科医院发展论坛组委会', image: '/uploads/awards/Trophy.png' },
  { id: 2, year: 2024, title: '患者满意度优秀单位', issuer: '上海市医疗服务质量评价中心', image: '/uploads/awards/Certificate.png' },
  { id: 3, year: 2023, title: '近视防控公益示范项目', issuer: '中华眼健康公益联盟', image: '/uploads/awards/Medal.png' },
  { id: 4, year: 2023, title: '医院信息化建设优秀案例', issuer: '全国医院数字化发展大会', image: '/uploads/awards/Plaque.png' },
  { id: 5, year: 2022, title: '眼科临床重点专科（屈光）', issuer: '华东眼科专科质量评审委员会', image: '/uploads/awards/Trophy.png' },
  { id: 6, year: 2021, title: '抗击疫情先进集体', issuer: '申城医疗公益联合会', image: '/uploads/awards/Certificate.png' },
  { id: 7, year: 2020, title: '中澳医疗合作贡献奖', issuer: '澳中健康产业交流协会', image: '/uploads/awards/Medal.png' },
  { id: 8, year: 2019, title: '科技创新奖（眼底病早期筛查）', issuer: '华东眼科学术联盟', image: '/uploads/awards/Plaque.png' },
  { id: 9, year: 2017, title: '光明公益奖', issuer: '光明行公益基金会', image: '/uploads/awards/Trophy.png' },
];

export const promotions: Promotion[] = [
  {
    id: 1,
    title: '明瞳眼科医疗集团企业宣传片',
    summary: '二十年专注眼科，从上海出发走向全国与世界，一起了解明瞳的成长与坚守。',
    poster: '/uploads/promotions/Corporate.jpg',
    duration: '00:13',
    date: '2024-06-18',
    video: {
      sources: [
        { src: '/uploads/promotions/corporate.webm', type: 'video/webm' },
        { src: '/uploads/promotions/corporate.mp4', type: 'video/mp4' },
      ],
      captions: [{ src: '/uploads/promotions/corporate-zh.vtt', lang: 'zh-CN', label: '中文字幕' }],
    },
  },
  {
    id: 2,
    title: '走进明瞳：温馨的就诊环境',
    summary: '宽敞明亮的候诊大厅、分区清晰的检查中心与一站式服务台，让就诊更从容。',
    poster: '/uploads/promotions/Environment.jpg',
    date: '2024-03-08',
  },
  {
    id: 3,
    title: '光明乡村行：十年公益路',
    summary: '十年间，医疗队走进 200 多个县乡，为老人和孩子送去免费眼健康筛查。',
    poster: '/uploads/promotions/Charity.jpg',
    date: '2023-11-20',
  },
  {
    id: 4,
    title: '中澳携手 同一标准',
    summary: '记录明瞳澳洲眼科医院的日常，以及中澳两地医生的交流与协作。',
    poster: '/uploads/promotions/International.jpg',
    date: '2023-08-15',
  },
];

export const patientServiceCategories: Category[] = [
  { id: 5, name: '特色治疗' },
  { id: 6, name: '科普知识' },
  { id: 7, name: '治疗设备' },
];

export const researchCategories: Category[] = [
  { id: 15, name: '科研创新' },
  { id: 16, name: '学术交流' },
  { id: 17, name: '教育新闻' },
  { id: 18, name: '科研新闻' },
];

export const researchSubcategories: SubCategory[] = [
  { id: 22, name: '住院医师培训', parentId: 17 },
  { id: 23, name: '继续教育', parentId: 17 },
  { id: 24, name: '学术讲座', parentId: 17 },
  { id: 25, name: '科研项目', parentId: 18 },
  { id: 26, name: '论文发表', parentId: 18 },
  { id: 27, name: '专利成果', parentId: 18 },
];

export const newsCategories: Category[] = [
  { id: 19, name: '集团新闻' },
  { id: 20, name: '医院新闻' },
  { id: 21, name: '媒体报道' },
];
