/** The 6 domestic hospitals, the Sydney hospital and the contact details. */
import type { ContactUs, Hospital, InternationalHospital } from '../demo-content-type.js';
import { html } from './helpers.js';

/** The domestic outpatient hours, every day (as the contact details say: 周一至周日 8:00-17:00). */
const EVERY_DAY_8_TO_5: Hospital['openingHours'] = [{ days: ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'], opens: '08:00', closes: '17:00' }];

/** A place on Amap (高德地图): its web page, which opens the app on a phone that has it. */
const amap = (lng: number, lat: number, name: string) =>
  `https://uri.amap.com/marker?position=${lng},${lat}&name=${encodeURIComponent(name)}&coordinate=gaode&callnative=1`;

export const HOSPITAL = {
  shanghai: '上海明瞳眼科医院',
  beijing: '北京明瞳眼科医院',
  guangzhou: '广州明瞳眼科医院',
  chengdu: '成都明瞳眼科医院',
  hangzhou: '杭州明瞳眼科医院',
  wuhan: '武汉明瞳眼科医院',
  sydney: '明瞳澳洲眼科医院',
} as const;

/**
 * Each hospital's `geo` is in WGS 84, as search engines read it; its Amap marker is in GCJ-02
 * (China's map datum), so the two differ by a few hundred metres.
 */
export const domesticHospitals: Hospital[] = [
  {
    id: 1,
    name: HOSPITAL.shanghai,
    city: '上海',
    address: '上海市徐汇区宜山路 1288 号',
    phone: '021-5438-2004',
    image: '/uploads/hospitals/Shanghai.JPG',
    summary: '集团总院，建筑面积 3.2 万平方米，设有屈光、白内障、眼底病、干眼等 12 个专科中心，是集团的临床、教学与科研基地。',
    founded: 2004,
    departments: ['屈光手术中心', '白内障中心', '眼底病中心', '青光眼科', '角膜病科', '干眼诊疗中心', '小儿眼科', '视光中心'],
    mapUrl: amap(121.4166, 31.1789, HOSPITAL.shanghai),
    geo: { latitude: 31.1808, longitude: 121.412 },
    openingHours: EVERY_DAY_8_TO_5,
  },
  {
    id: 2,
    name: HOSPITAL.beijing,
    city: '北京',
    address: '北京市朝阳区东三环中路 66 号',
    phone: '010-6588-2010',
    image: '/uploads/hospitals/Beijing.JPG',
    summary: '集团在华北地区的区域医疗中心，以白内障与玻璃体视网膜手术见长，设有眼科住院医师规范化培训基地。',
    founded: 2010,
    departments: ['白内障中心', '眼底病中心', '屈光手术中心', '青光眼科', '眼外伤科', '视光中心'],
    mapUrl: amap(116.4613, 39.9109, HOSPITAL.beijing),
    geo: { latitude: 39.9096, longitude: 116.4552 },
    openingHours: EVERY_DAY_8_TO_5,
  },
  {
    id: 3,
    name: HOSPITAL.guangzhou,
    city: '广州',
    address: '广州市天河区天河北路 520 号',
    phone: '020-3862-2012',
    image: '/uploads/hospitals/Guangzhou.JPG',
    summary: '华南区域眼科专科医院，青光眼科与角膜病科为特色专科，开展各类角膜移植手术。',
    founded: 2012,
    departments: ['青光眼科', '角膜病科', '屈光手术中心', '白内障中心', '小儿眼科', '视光中心'],
    mapUrl: amap(113.3321, 23.1446, HOSPITAL.guangzhou),
    geo: { latitude: 23.1472, longitude: 113.3267 },
    openingHours: EVERY_DAY_8_TO_5,
  },
  {
    id: 4,
    name: HOSPITAL.chengdu,
    city: '成都',
    address: '成都市武侯区人民南路四段 27 号',
    phone: '028-8557-2014',
    image: '/uploads/hospitals/Chengdu.JPG',
    summary: '西南地区眼科专科医院，设有近视防控研究中心，长期承担区域中小学视力筛查与“光明乡村行”公益项目。',
    founded: 2014,
    departments: ['小儿眼科', '近视防控中心', '屈光手术中心', '白内障中心', '眼底病科', '视光中心'],
    mapUrl: amap(104.0688, 30.6256, HOSPITAL.chengdu),
    geo: { latitude: 30.628, longitude: 104.0663 },
    openingHours: EVERY_DAY_8_TO_5,
  },
  {
    id: 5,
    name: HOSPITAL.hangzhou,
    city: '杭州',
    address: '杭州市西湖区文三路 398 号',
    phone: '0571-8821-2016',
    image: '/uploads/hospitals/Hangzhou.JPG',
    summary: '以屈光手术与智慧医疗为特色，率先在集团内实现全流程线上预约、检查报告推送与术后智能随访。',
    founded: 2016,
    departments: ['屈光手术中心', '白内障中心', '干眼诊疗中心', '眼底病科', '视光中心'],
    mapUrl: amap(120.1321, 30.2781, HOSPITAL.hangzhou),
    geo: { latitude: 30.2804, longitude: 120.1273 },
    openingHours: EVERY_DAY_8_TO_5,
  },
  {
    id: 6,
    name: HOSPITAL.wuhan,
    city: '武汉',
    address: '武汉市江汉区建设大道 718 号',
    phone: '027-8577-2018',
    image: '/uploads/hospitals/Wuhan.JPG',
    summary: '华中地区眼科专科医院，眼整形与眼眶病科、白内障中心为特色专科，辐射湖北及周边省份。',
    founded: 2018,
    departments: ['眼整形与眼眶病科', '白内障中心', '屈光手术中心', '青光眼科', '小儿眼科', '视光中心'],
    mapUrl: amap(114.2689, 30.5951, HOSPITAL.wuhan),
    geo: { latitude: 30.5976, longitude: 114.2635 },
    openingHours: EVERY_DAY_8_TO_5,
  },
];

export const internationalHospitals: InternationalHospital[] = [
  {
    id: 7,
    name: HOSPITAL.sydney,
    city: '悉尼',
    country: '澳大利亚',
    address: '澳大利亚新南威尔士州悉尼市乔治街 388 号 5 层（Level 5, 388 George Street, Sydney NSW 2000）',
    phone: '+61 2 9188 2020',
    // A photograph (raster, in four widths), where the other hospitals have illustrations.
    image: '/uploads/photos/sydney-hospital.webp',
    summary: '明瞳眼科医疗集团在海外设立的首家眼科医院，位于悉尼中央商务区，提供中英文双语眼科诊疗服务。',
    founded: 2020,
    departments: ['白内障与屈光手术', '综合眼科门诊', '眼底病门诊', '视光与配镜中心'],
    mapUrl: 'https://www.google.com/maps/search/?api=1&query=388+George+Street+Sydney+NSW+2000',
    geo: { latitude: -33.8688, longitude: 151.207 },
    openingHours: [
      { days: ['Mo', 'Tu', 'We', 'Th', 'Fr'], opens: '08:30', closes: '17:30' },
      { days: ['Sa'], opens: '09:00', closes: '13:00' },
    ],
    timeZone: 'Australia/Sydney',
    content: html([
      '明瞳澳洲眼科医院于 2020 年在悉尼开业，是明瞳眼科医疗集团国际化战略的重要一步。医院位于悉尼中央商务区，交通便利，毗邻多条公交与轻轨线路。',
      '医院遵循澳大利亚医疗监管要求执业，医生均持有澳大利亚执业注册资格，并与国内各院区共享临床路径、病例讨论和质量管理标准，为在澳华人及当地居民提供中英文双语诊疗服务。',
      '## 诊疗服务',
      '医院开展白内障手术、激光屈光手术、青光眼与眼底病的诊断和随访、儿童视力检查及配镜服务。对于需要回国继续治疗或术后随访的患者，可通过集团远程会诊平台实现病历与影像资料的衔接。',
      '## 交流与培训',
      '医院每年选派医生赴国内院区交流，并接收国内青年医生来澳短期进修，中澳两地定期举办联合病例讨论与学术研讨会。',
    ]),
    highlights: [
      '位于悉尼中央商务区，交通便利',
      '中英文双语接诊，提供就诊翻译协助',
      '与国内院区共享临床路径与质量标准',
      '支持中澳远程会诊与病历衔接',
      '定期举办中澳联合学术交流活动',
    ],
  },
];

export const contactUs: ContactUs = {
  groupName: '明瞳眼科医疗集团',
  address: '上海市徐汇区宜山路 1288 号明瞳大厦 18 层',
  postcode: '200233',
  phone: '400-820-2004',
  email: 'service@mingtong-eye.example',
  hours: '门诊时间：周一至周日 8:00-17:00（法定节假日另行通知）；咨询热线 8:00-20:00',
  mapUrl: amap(121.4166, 31.1789, '明瞳大厦'),
  booking: {
    phone: '400-820-2004',
    hours: '每天 8:00-20:00',
    note: '电话或微信预约，客服专员为您安排就诊院区、专家与时间；就诊当天请携带身份证或医保卡。',
  },
  wechat: {
    account: '明瞳眼科',
    image: '/uploads/brand/wechat-qr.svg',
    note: '微信扫一扫，关注公众号即可预约挂号、查询报告、咨询客服',
  },
  filings: {
    icp: '沪ICP备2004018号-1',
    icpUrl: 'https://beian.miit.gov.cn/',
    publicSecurity: '沪公网安备31010402004018号',
    publicSecurityUrl: 'https://beian.mps.gov.cn/#/query/webSearch?code=31010402004018',
  },
  branches: [...domesticHospitals, ...internationalHospitals].map((h) => ({
    name: h.name,
    address: h.address,
    phone: h.phone,
    ...(h.mapUrl ? { mapUrl: h.mapUrl } : {}),
  })),
};
