/**
 * The site's 20 routes (SPEC.md point 2) with their titles (SITE.md point 3), meta
 * descriptions, the page module that draws each and the loader that feeds it.
 */
import type { PageKey } from './page-data.js';

export interface PageRoute {
  readonly path: string;
  readonly key: PageKey;
  /** document.title, exactly as SITE.md point 3 names the page. */
  readonly title: string;
  readonly description: string;
  /** The page module's file name in client/pages/, without extension. */
  readonly file: string;
}

export const PAGE_ROUTES: readonly PageRoute[] = [
  { path: '/', key: 'home', title: '首页', file: 'home-page', description: '眼科医疗集团官方网站：特色治疗、专家团队、国内外医院与新闻动态。' },
  { path: '/jtjj/qywh', key: 'culture', title: '企业文化', file: 'culture-page', description: '了解集团的使命、愿景与核心价值观。' },
  { path: '/jtjj/fzlc', key: 'history', title: '发展历程', file: 'history-page', description: '集团自创立以来的发展历程与重要里程碑。' },
  { path: '/jtjj/ryjx', key: 'awards', title: '荣誉奖项', file: 'awards-page', description: '集团获得的荣誉与奖项。' },
  { path: '/jtjj/qyhcp', key: 'promotions', title: '企业宣传片', file: 'promotions-page', description: '集团企业宣传片与品牌影像。' },
  { path: '/hzhf/tszl', key: 'treatments', title: '特色治疗', file: 'treatments-page', description: '特色治疗项目：屈光手术、白内障、青光眼、眼底病等。' },
  { path: '/hzhf/kpzs', key: 'knowledge', title: '科普知识', file: 'knowledge-page', description: '眼健康科普知识：护眼常识、常见眼病的预防与治疗。' },
  { path: '/hzhf/kpzsDetail', key: 'contentDetail', title: '内容详情', file: 'content-detail-page', description: '集团内容详情。' },
  { path: '/hzhf/zlsb', key: 'equipment', title: '治疗设备', file: 'equipment-page', description: '集团引进的先进眼科诊疗设备。' },
  { path: '/gjws/index', key: 'international', title: '国际医院', file: 'international-page', description: '集团澳大利亚（悉尼）国际眼科医院介绍。' },
  { path: '/zjxz/index', key: 'experts', title: '专家团队', file: 'experts-page', description: '集团专家团队介绍。' },
  { path: '/zjxz/detail', key: 'expertDetail', title: '专家详情', file: 'expert-detail-page', description: '集团专家的详细介绍与出诊信息。' },
  { path: '/xsyj/xsyj', key: 'researchInnovation', title: '科研创新', file: 'research-innovation-page', description: '集团的科研创新成果。' },
  { path: '/xsyj/ykxs', key: 'academicExchange', title: '学术交流', file: 'academic-exchange-page', description: '集团的学术交流活动。' },
  { path: '/xsyj/jyxw', key: 'educationNews', title: '教育新闻', file: 'education-news-page', description: '集团的教学与教育新闻。' },
  { path: '/xsyj/kyxw', key: 'researchNews', title: '科研新闻', file: 'research-news-page', description: '集团的科研新闻。' },
  { path: '/news/index', key: 'news', title: '新闻媒体', file: 'news-page', description: '集团新闻、医院新闻与媒体报道。' },
  { path: '/gnyy/index', key: 'domesticHospitals', title: '国内医院', file: 'domestic-hospitals-page', description: '集团在国内的医院与医院新闻。' },
  { path: '/gnyy/detail', key: 'reportDetail', title: '报道详情', file: 'report-detail-page', description: '集团媒体报道详情。' },
  { path: '/lxwm/index', key: 'contact', title: '联系我们', file: 'contact-page', description: '集团联系方式、地址与各院区电话。' },
];

export const NOT_FOUND_TITLE = '页面未找到';
export const UNAVAILABLE_TITLE = '暂时无法访问';
