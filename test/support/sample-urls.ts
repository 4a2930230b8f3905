/** A URL for each page route and API path that names real demo content (detail routes need an id). */
import { ROUTES } from '../../shared/site/route-table.js';
import { demoContent } from '../../server/embedded-api/demo-content/index.js';
import { API_PATHS, type ApiName } from '../../shared/contract/api-paths.js';

export const sample = {
  article: demoContent.contentItems.find((i) => i.categoryId === 6)!,
  news: demoContent.contentItems.find((i) => i.categoryId === 19)!,
  expert: demoContent.experts[0]!,
  hospital: demoContent.domesticHospitals[0]!,
};

export function sampleUrl(path: string): string {
  if (path === '/hzhf/kpzsDetail') return `${path}?id=${sample.article.id}`;
  if (path === '/gnyy/detail') return `${path}?id=${sample.news.id}`;
  if (path === '/zjxz/detail') return `${path}?id=${sample.expert.id}`;
  if (path === '/gnyy/yyxq') return `${path}?id=${sample.hospital.id}`;
  if (path === '/search') return `${path}?q=${encodeURIComponent('白内障')}`;
  return path;
}

/** Every page route, at its sample URL, and the 404 page. */
export const EVERY_PAGE: readonly string[] = [...Object.values(ROUTES).map((r) => sampleUrl(r.path)), '/no/such/page'];

/** One of the 21 API paths with a real id where it takes one. */
export function sampleApiPath(name: ApiName): string {
  return API_PATHS[name].template.replace('{id}', String(name === 'expert' ? sample.expert.id : sample.news.id));
}
