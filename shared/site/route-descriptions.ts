/**
 * Each page's own meta description, for the document head the server writes. A page about one
 * thing (an article, an expert, the Sydney hospital, a treatment) and the home page describe
 * their content instead (server/seo/page-summary.ts); their lines here stand in when that
 * content is missing (a 404). Kept apart from the route table because the browser never needs
 * them: they stay out of the app's scripts.
 */
import type { RouteKey } from './route-table.js';

export const ROUTE_DESCRIPTIONS: Readonly<Record<RouteKey, string>> = {
  home: '眼科医疗集团官方网站：特色治疗、专家团队、国内外医院与新闻动态。',
  culture: '了解集团的使命、愿景与核心价值观。',
  history: '集团自创立以来的发展历程与重要里程碑。',
  awards: '集团获得的荣誉与奖项。',
  promotions: '集团企业宣传片与品牌影像。',
  treatments: '特色治疗项目：屈光手术、白内障、青光眼、眼底病等。',
  knowledge: '眼健康科普知识：护眼常识、常见眼病的预防与治疗。',
  contentDetail: '集团内容详情。',
  equipment: '集团引进的先进眼科诊疗设备。',
  international: '集团澳大利亚（悉尼）国际眼科医院介绍。',
  experts: '集团专家团队介绍。',
  expertDetail: '集团专家的详细介绍与出诊信息。',
  researchInnovation: '集团的科研创新成果。',
  academicExchange: '集团的学术交流活动。',
  educationNews: '集团的教学与教育新闻。',
  researchNews: '集团的科研新闻。',
  news: '集团新闻、医院新闻与媒体报道。',
  domesticHospitals: '集团在国内的医院与医院新闻。',
  hospital: '集团医院的地址、门诊时间、出诊专家与医院新闻。',
  reportDetail: '集团媒体报道详情。',
  contact: '集团联系方式、地址与各院区电话。',
  accessibility: '本网站的无障碍与适老化服务：长者模式、高对比度、语音朗读、大鼠标、键盘操作，以及如何获得帮助。',
  search: '在全站搜索科普文章、特色治疗与设备、专家、医院与学术研究。',
};
