/**
 * The content API's 21 GET paths (docs/product/pages-and-paths.md): the only paths the service proxies.
 * Each entry names its query parameters, its payload (the `data` of the envelope) and how long
 * an answer stays fresh. The embedded API, the proxy, the OpenAPI document and the pages all
 * read this table.
 */
import { z } from 'zod';
import { NEWS_CATEGORY_IDS, RESEARCH_CATEGORY_IDS } from '../constants.js';
import * as e from './entities.js';
import { API_TEMPLATES, type ApiName } from './api-templates.js';
import { idParam, paging } from './query-params.js';

export type { ApiName } from './api-templates.js';

export interface ApiPath<Q extends z.ZodObject = z.ZodObject, D extends z.ZodType = z.ZodType> {
  /** The path, with `{id}` for a path id. */
  readonly template: string;
  readonly summary: string;
  /** Allowed query parameters; anything else is a 400. */
  readonly query: Q;
  /** The payload under the envelope's `data`. */
  readonly data: D;
  /** Seconds an answer stays fresh. */
  readonly maxAge: number;
  /** The whole answer: `{ data }`. */
  readonly answer: z.ZodObject<{ data: D }>;
}

/** A path's entry, with its whole answer's schema built once (building one compiles a parser). */
function path<Q extends z.ZodObject, D extends z.ZodType>(p: Omit<ApiPath<Q, D>, 'answer'>): ApiPath<Q, D> {
  return { ...p, answer: envelope(p.data) };
}

const none = z.object({});
const MINUTE = 60;

export const API_PATHS = {
  groupIntroduction: path({
    template: API_TEMPLATES.groupIntroduction,
    summary: '集团简介',
    query: none,
    data: e.groupIntroduction,
    maxAge: 10 * MINUTE,
  }),
  banner: path({ template: API_TEMPLATES.banner, summary: '首页横幅', query: none, data: z.array(e.banner), maxAge: 5 * MINUTE }),
  specialtyTreatment: path({
    template: API_TEMPLATES.specialtyTreatment,
    summary: '特色治疗',
    query: none,
    data: e.specialtyTreatments,
    maxAge: 10 * MINUTE,
  }),
  expertGroup: path({ template: API_TEMPLATES.expertGroup, summary: '首页专家团队', query: none, data: e.expertGroup, maxAge: 5 * MINUTE }),
  newsMedia: path({ template: API_TEMPLATES.newsMedia, summary: '首页新闻媒体', query: none, data: e.newsMedia, maxAge: MINUTE }),
  patientServiceCategories: path({
    template: API_TEMPLATES.patientServiceCategories,
    summary: '患者服务分类',
    query: none,
    data: z.array(e.category),
    maxAge: 10 * MINUTE,
  }),
  knowledgeArticles: path({
    template: API_TEMPLATES.knowledgeArticles,
    summary: '科普知识文章',
    query: z.object(paging),
    data: e.pageOf(e.contentSummary),
    maxAge: 2 * MINUTE,
  }),
  awardHonors: path({ template: API_TEMPLATES.awardHonors, summary: '荣誉奖项', query: none, data: z.array(e.award), maxAge: 10 * MINUTE }),
  promotions: path({
    template: API_TEMPLATES.promotions,
    summary: '企业宣传片',
    query: none,
    data: z.array(e.promotion),
    maxAge: 10 * MINUTE,
  }),
  domesticHospitals: path({
    template: API_TEMPLATES.domesticHospitals,
    summary: '国内医院',
    query: none,
    data: z.array(e.hospital),
    maxAge: 10 * MINUTE,
  }),
  internationalHospitals: path({
    template: API_TEMPLATES.internationalHospitals,
    summary: '国际医院',
    query: none,
    data: z.array(e.internationalHospital),
    maxAge: 10 * MINUTE,
  }),
  experts: path({
    template: API_TEMPLATES.experts,
    summary: '专家列表',
    query: z.object(paging),
    data: e.pageOf(e.expertSummary),
    maxAge: 5 * MINUTE,
  }),
  expert: path({ template: API_TEMPLATES.expert, summary: '专家详情', query: none, data: e.expert, maxAge: 5 * MINUTE }),
  researchCategories: path({
    template: API_TEMPLATES.researchCategories,
    summary: '学术研究分类',
    query: none,
    data: z.array(e.category),
    maxAge: 10 * MINUTE,
  }),
  research: path({
    template: API_TEMPLATES.research,
    summary: '学术研究内容（可按分类筛选）',
    query: z.object({ categoryId: idParam(RESEARCH_CATEGORY_IDS).optional(), ...paging }),
    data: e.pageOf(e.contentSummary),
    maxAge: 2 * MINUTE,
  }),
  newsCategories: path({
    template: API_TEMPLATES.newsCategories,
    summary: '新闻分类',
    query: none,
    data: z.array(e.category),
    maxAge: 10 * MINUTE,
  }),
  news: path({
    template: API_TEMPLATES.news,
    summary: '新闻与内容列表（可按分类筛选）',
    query: z.object({ categoryId: idParam(NEWS_CATEGORY_IDS).optional(), ...paging }),
    data: e.pageOf(e.contentSummary),
    maxAge: MINUTE,
  }),
  newsDetail: path({
    template: API_TEMPLATES.newsDetail,
    summary: '内容详情（文章、科研与新闻共用一个编号空间）',
    query: none,
    data: e.contentDetail,
    maxAge: 5 * MINUTE,
  }),
  contactUs: path({ template: API_TEMPLATES.contactUs, summary: '联系我们', query: none, data: e.contactUs, maxAge: 10 * MINUTE }),
  educationSubcategories: path({
    template: API_TEMPLATES.educationSubcategories,
    summary: '教育新闻子分类',
    query: none,
    data: z.array(e.subCategory),
    maxAge: 10 * MINUTE,
  }),
  researchSubcategories: path({
    template: API_TEMPLATES.researchSubcategories,
    summary: '科研新闻子分类',
    query: none,
    data: z.array(e.subCategory),
    maxAge: 10 * MINUTE,
  }),
} as const satisfies Record<ApiName, ApiPath>;

/** A path's payload as the service answers it (its media served from this site). */
export type ApiData<N extends ApiName> = e.Served<z.output<(typeof API_PATHS)[N]['data']>>;
/** Query as a caller writes it (before defaults). */
export type ApiQuery<N extends ApiName> = Partial<Record<keyof z.input<(typeof API_PATHS)[N]['query']>, string | number>>;

/** Every answer is an envelope whose `data` holds the payload. */
function envelope<D extends z.ZodType>(data: D) {
  return z.object({ data });
}

/** The stable error shape (docs/product/errors.md). */
export const apiError = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
});
