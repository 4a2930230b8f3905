/**
 * The line under each page's title in its banner, and each section's line in its header panel.
 * Kept apart from the route table because only the pages with a banner (and the panels, loaded
 * when opened) show them: they load with those, not with every page's first scripts.
 */
import type { RouteKey, SectionKey } from './route-table.js';

export const ROUTE_LEADS: Readonly<Partial<Record<RouteKey, string>>> = {
  culture: '以患者为中心，以质量为生命',
  history: '二十年砥砺前行，始终专注眼健康',
  awards: '专业与服务获得行业和社会的广泛认可',
  promotions: '用影像记录每一次重见光明',
  treatments: '专科化、精细化的眼科诊疗服务',
  knowledge: '护眼常识与常见眼病的预防、识别和治疗',
  contentDetail: '权威、易懂的眼健康知识与诊疗资讯',
  equipment: '引进国际先进的眼科诊疗设备，让诊断更精准、手术更安全',
  international: '中澳两地同一标准，为海外华人与国际患者守护光明',
  experts: '汇聚眼科各亚专业的资深专家，守护每一双眼睛',
  expertDetail: '了解专家的专业方向、出诊时间与学术成就',
  researchInnovation: '以临床问题为导向的眼科科研与技术创新',
  academicExchange: '与国内外眼科同行携手，分享经验、共促发展',
  educationNews: '住院医师规范化培训、继续教育与患者健康教育',
  researchNews: '课题立项、论文发表与科研合作的最新进展',
  news: '集团动态、各院新闻与媒体报道',
  domesticHospitals: '多家院区统一诊疗标准，就近享受优质眼科服务',
  reportDetail: '记录明瞳在医疗、公益与学术上的每一步',
  contact: '如需咨询、预约或合作，欢迎与我们联系',
  accessibility: '大字、高对比度、语音朗读、大鼠标与键盘操作，帮助您更轻松地浏览本网站',
};

export const SECTION_LEADS: Readonly<Partial<Record<SectionKey, string>>> = {
  domestic: '多家院区统一诊疗标准与质量管理，就近享受优质眼科服务。',
  international: '集团在澳大利亚悉尼设立国际眼科医院，中澳两地专家协同诊疗，为海外华人与国际患者提供与国际标准接轨的眼科医疗服务。',
  research: '以临床需求为导向，推动眼科诊疗技术创新与学术交流。',
  news: '集团动态、各院新闻与媒体报道。',
};
