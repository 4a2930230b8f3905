/**
 * The 21 paths of the content API (docs/product/pages-and-paths.md) by name. Kept apart from their schemas
 * (api-paths.ts) so that the browser can build URLs without loading the schema library.
 */
export const API_TEMPLATES = {
  groupIntroduction: '/api/group-introduction',
  banner: '/api/banner',
  specialtyTreatment: '/api/specialty-treatment',
  expertGroup: '/api/expert-group',
  newsMedia: '/api/news-media',
  patientServiceCategories: '/api/patient-service-categories',
  knowledgeArticles: '/api/categories/6/articles',
  awardHonors: '/api/award-honors',
  promotions: '/api/promotions',
  domesticHospitals: '/api/domestic-hospitals',
  internationalHospitals: '/api/international-hospitals',
  experts: '/api/experts',
  expert: '/api/experts/{id}',
  researchCategories: '/api/academic-research-categories',
  research: '/api/academic-research',
  newsCategories: '/api/news-categories',
  news: '/api/news',
  newsDetail: '/api/news/{id}',
  contactUs: '/api/contact-us',
  educationSubcategories: '/api/academic-research-categories/17/children',
  researchSubcategories: '/api/academic-research-categories/18/children',
} as const;

export type ApiName = keyof typeof API_TEMPLATES;

/** Fill a template's `{id}`. */
export function pathFor(name: ApiName, id?: number): string {
  const t = API_TEMPLATES[name];
  return id === undefined ? t : t.replace('{id}', String(id));
}
