/**
 * The site's one table of routes, sections and categories (docs/product/routes.md). The router,
 * the header, footer and panels, breadcrumbs, links, canonical URLs, page-cache keys and the
 * sitemap are all derived from it: renaming a route, a section or a category is one line here.
 */
import { CATEGORY } from '../constants.js';

/**
 * A query parameter a page's content depends on: an item's `id`; a `category`, written as `id`
 * with its `name` beside it (the original site's links carry both); a sub-category; a
 * treatment's title; a page number; the search page's words and kind; the expert finder's
 * hospital and specialty.
 */
export type PageParam = 'id' | 'category' | 'sub' | 'title' | 'page' | 'q' | 'kind' | 'hospital' | 'specialty';

export type SectionKey = 'home' | 'about' | 'services' | 'domestic' | 'international' | 'experts' | 'research' | 'news' | 'contact';

export interface RouteFacts {
  readonly path: string;
  /** document.title, and the page's name in navigation. */
  readonly title: string;
  /** The line under the title in the page's banner. */
  readonly lead?: string;
  /** The header item it belongs to; none for the search page, which belongs to none. */
  readonly section?: SectionKey;
  /** The one category the page lists: its links carry `id` and `name`, as the original site's do. */
  readonly category?: CategoryId;
  /** The query parameters the page reads, in canonical order; any other is ignored. */
  readonly params: readonly PageParam[];
  /** A page about one item: nothing without `id` (the sitemap lists it per item). */
  readonly needsId?: true;
  /** A page search engines should not keep (search results): `noindex`, and left out of the sitemap. */
  readonly noindex?: true;
  /** Parameters that only narrow the page's list (the expert finder's): an address with one is `noindex`, its unnarrowed page the one kept. */
  readonly filters?: readonly PageParam[];
  /** Its module in client/pages/, without extension. */
  readonly page: string;
}

export type CategoryId = (typeof CATEGORY)[keyof typeof CATEGORY];

/** The content API's fixed categories and their names (the API's own lists may rename them). */
export const CATEGORY_NAMES: Readonly<Record<CategoryId, string>> = {
  [CATEGORY.featuredTreatments]: '特色治疗',
  [CATEGORY.knowledge]: '科普知识',
  [CATEGORY.equipment]: '治疗设备',
  [CATEGORY.researchInnovation]: '科研创新',
  [CATEGORY.academicExchange]: '学术交流',
  [CATEGORY.educationNews]: '教育新闻',
  [CATEGORY.researchNews]: '科研新闻',
  [CATEGORY.groupNews]: '集团新闻',
  [CATEGORY.hospitalNews]: '医院新闻',
  [CATEGORY.mediaReports]: '媒体报道',
};

const C = CATEGORY;

export const ROUTES = {
  home: {
    path: '/',
    title: '首页',
    section: 'home',
    params: [],
    page: 'home-page',
  },
  culture: {
    path: '/jtjj/qywh',
    title: '企业文化',
    section: 'about',
    params: [],
    page: 'culture-page',
    lead: '以患者为中心，以质量为生命',
  },
  history: {
    path: '/jtjj/fzlc',
    title: '发展历程',
    section: 'about',
    params: [],
    page: 'history-page',
    lead: '二十年砥砺前行，始终专注眼健康',
  },
  awards: {
    path: '/jtjj/ryjx',
    title: '荣誉奖项',
    section: 'about',
    params: [],
    page: 'awards-page',
    lead: '专业与服务获得行业和社会的广泛认可',
  },
  promotions: {
    path: '/jtjj/qyhcp',
    title: '企业宣传片',
    section: 'about',
    params: [],
    page: 'promotions-page',
    lead: '用影像记录每一次重见光明',
  },
  treatments: {
    path: '/hzhf/tszl',
    title: CATEGORY_NAMES[C.featuredTreatments],
    section: 'services',
    category: C.featuredTreatments,
    params: ['title'],
    page: 'treatments-page',
    lead: '专科化、精细化的眼科诊疗服务',
  },
  knowledge: {
    path: '/hzhf/kpzs',
    title: CATEGORY_NAMES[C.knowledge],
    section: 'services',
    category: C.knowledge,
    params: ['page'],
    page: 'category-page',
    lead: '护眼常识与常见眼病的预防、识别和治疗',
  },
  contentDetail: {
    path: '/hzhf/kpzsDetail',
    title: '内容详情',
    section: 'services',
    params: ['id'],
    needsId: true,
    page: 'article-page',
    lead: '权威、易懂的眼健康知识与诊疗资讯',
  },
  equipment: {
    path: '/hzhf/zlsb',
    title: CATEGORY_NAMES[C.equipment],
    section: 'services',
    category: C.equipment,
    params: ['page'],
    page: 'category-page',
    lead: '引进国际先进的眼科诊疗设备，让诊断更精准、手术更安全',
  },
  international: {
    path: '/gjws/index',
    title: '国际医院',
    section: 'international',
    params: [],
    page: 'international-page',
    lead: '中澳两地同一标准，为海外华人与国际患者守护光明',
  },
  experts: {
    path: '/zjxz/index',
    title: '专家团队',
    section: 'experts',
    params: ['hospital', 'specialty', 'page'],
    filters: ['hospital', 'specialty'],
    page: 'experts-page',
    lead: '汇聚眼科各亚专业的资深专家，守护每一双眼睛',
  },
  expertDetail: {
    path: '/zjxz/detail',
    title: '专家详情',
    section: 'experts',
    params: ['id'],
    needsId: true,
    page: 'expert-detail-page',
    lead: '了解专家的专业方向、出诊时间与学术成就',
  },
  researchInnovation: {
    path: '/xsyj/xsyj',
    title: CATEGORY_NAMES[C.researchInnovation],
    section: 'research',
    category: C.researchInnovation,
    params: ['page'],
    page: 'category-page',
    lead: '以临床问题为导向的眼科科研与技术创新',
  },
  academicExchange: {
    path: '/xsyj/ykxs',
    title: CATEGORY_NAMES[C.academicExchange],
    section: 'research',
    category: C.academicExchange,
    params: ['page'],
    page: 'category-page',
    lead: '与国内外眼科同行携手，分享经验、共促发展',
  },
  educationNews: {
    path: '/xsyj/jyxw',
    title: CATEGORY_NAMES[C.educationNews],
    section: 'research',
    category: C.educationNews,
    params: ['sub', 'page'],
    page: 'research-news-page',
    lead: '住院医师规范化培训、继续教育与患者健康教育',
  },
  researchNews: {
    path: '/xsyj/kyxw',
    title: CATEGORY_NAMES[C.researchNews],
    section: 'research',
    category: C.researchNews,
    params: ['sub', 'page'],
    page: 'research-news-page',
    lead: '课题立项、论文发表与科研合作的最新进展',
  },
  news: {
    path: '/news/index',
    title: '新闻媒体',
    section: 'news',
    params: ['category', 'page'],
    page: 'news-page',
    lead: '集团动态、各院新闻与媒体报道',
  },
  domesticHospitals: {
    path: '/gnyy/index',
    title: '国内医院',
    section: 'domestic',
    params: ['page'],
    page: 'domestic-hospitals-page',
    lead: '多家院区统一诊疗标准，就近享受优质眼科服务',
  },
  hospital: {
    path: '/gnyy/yyxq',
    title: '医院详情',
    section: 'domestic',
    params: ['id'],
    needsId: true,
    page: 'hospital-page',
  },
  reportDetail: {
    path: '/gnyy/detail',
    title: '报道详情',
    section: 'news',
    params: ['id'],
    needsId: true,
    page: 'article-page',
    lead: '记录明瞳在医疗、公益与学术上的每一步',
  },
  contact: {
    path: '/lxwm/index',
    title: '联系我们',
    section: 'contact',
    params: [],
    page: 'contact-page',
    lead: '如需咨询、预约或合作，欢迎与我们联系',
  },
  accessibility: {
    path: '/wza/index',
    title: '无障碍说明',
    params: [],
    page: 'accessibility-page',
    lead: '大字、高对比度、语音朗读、大鼠标与键盘操作，帮助您更轻松地浏览本网站',
  },
  search: {
    path: '/search',
    title: '搜索',
    params: ['q', 'kind', 'page'],
    page: 'search-page',
    noindex: true,
  },
} as const satisfies Record<string, RouteFacts>;

export type RouteKey = keyof typeof ROUTES;

/** The header item a route belongs to; undefined for the search page. */
export const sectionOf = (key: RouteKey): SectionKey | undefined => (ROUTES[key] as RouteFacts).section;
/** The routes of one item each (they need an `id`). */
export type ItemRoute = { [K in RouteKey]: (typeof ROUTES)[K] extends { needsId: true } ? K : never }[RouteKey];

/** Where each category's list is shown; the news page shows three, chosen by its `id`. */
export const CATEGORY_ROUTES: Readonly<Record<CategoryId, RouteKey>> = {
  [C.featuredTreatments]: 'treatments',
  [C.knowledge]: 'knowledge',
  [C.equipment]: 'equipment',
  [C.researchInnovation]: 'researchInnovation',
  [C.academicExchange]: 'academicExchange',
  [C.educationNews]: 'educationNews',
  [C.researchNews]: 'researchNews',
  [C.groupNews]: 'news',
  [C.hospitalNews]: 'news',
  [C.mediaReports]: 'news',
};

type PanelKey = 'intro' | 'services' | 'domestic' | 'international' | 'research' | 'news';

export interface Section {
  readonly label: string;
  /** The header item's hover panel. */
  readonly panel?: PanelKey;
  /** The panel's text, where the content API gives none. */
  readonly lead?: string;
  /** The illustration in the band at the top of the section's pages (a local /media path). */
  readonly banner?: string;
  /** Its sub-pages, in order: routes, or categories; the first is where the header item leads. */
  readonly links: readonly ({ route: Exclude<RouteKey, ItemRoute> } | { category: CategoryId })[];
}

/** The header's nine items, in order (docs/product/header-and-footer.md). */
export const SECTIONS: Readonly<Record<SectionKey, Section>> = {
  home: { label: '首页', links: [{ route: 'home' }] },
  about: {
    label: '集团简介',
    banner: '/media/banners/section-about.svg',
    panel: 'intro',
    links: [{ route: 'culture' }, { route: 'history' }, { route: 'awards' }, { route: 'promotions' }],
  },
  services: {
    label: '患者服务',
    banner: '/media/banners/section-services.svg',
    panel: 'services',
    links: [{ category: C.featuredTreatments }, { category: C.knowledge }, { category: C.equipment }],
  },
  domestic: {
    label: '国内医院',
    banner: '/media/banners/section-domestic.svg',
    panel: 'domestic',
    lead: '多家院区统一诊疗标准与质量管理，就近享受优质眼科服务。',
    links: [{ route: 'domesticHospitals' }],
  },
  international: {
    label: '国际医院',
    banner: '/media/banners/section-international.svg',
    panel: 'international',
    lead: '集团在澳大利亚悉尼设立国际眼科医院，中澳两地专家协同诊疗，为海外华人与国际患者提供与国际标准接轨的眼科医疗服务。',
    links: [{ route: 'international' }],
  },
  experts: { label: '专家团队', banner: '/media/banners/section-experts.svg', links: [{ route: 'experts' }] },
  research: {
    label: '学术研究',
    banner: '/media/banners/section-research.svg',
    panel: 'research',
    lead: '以临床需求为导向，推动眼科诊疗技术创新与学术交流。',
    links: [
      { category: C.researchInnovation },
      { category: C.academicExchange },
      { category: C.educationNews },
      { category: C.researchNews },
    ],
  },
  news: {
    label: '新闻媒体',
    banner: '/media/banners/section-news.svg',
    panel: 'news',
    lead: '集团动态、各院新闻与媒体报道。',
    links: [{ category: C.groupNews }, { category: C.hospitalNews }, { category: C.mediaReports }],
  },
  contact: { label: '联系我们', banner: '/media/banners/section-contact.svg', links: [{ route: 'contact' }] },
};

export const NOT_FOUND_TITLE = '页面未找到';
export const UNAVAILABLE_TITLE = '暂时无法访问';
export const TOO_MANY_TITLE = '访问过于频繁';
