/** A URL for each page route that names real demo content (detail routes need an id). */
import { demoContent } from '../../server/embedded-api/demo-content/index.js';

export const sample = {
  article: demoContent.contentItems.find((i) => i.categoryId === 6)!,
  news: demoContent.contentItems.find((i) => i.categoryId === 19)!,
  expert: demoContent.experts[0]!,
};

export function sampleUrl(path: string): string {
  if (path === '/hzhf/kpzsDetail') return `${path}?id=${sample.article.id}`;
  if (path === '/gnyy/detail') return `${path}?id=${sample.news.id}`;
  if (path === '/zjxz/detail') return `${path}?id=${sample.expert.id}`;
  return path;
}
