/**
 * A content item's page: a NewsArticle for news, research and other reports, a MedicalWebPage
 * for what the patient-services section publishes (health education, equipment). Headline,
 * date, cover and publisher are the item's own facts; nothing is added that the content API
 * did not give.
 */
import type { MedicalWebPage, NewsArticle } from 'schema-dts';
import { categorySection, href } from '../../../shared/site/href.js';
import { categoryName } from '../../../shared/site/navigation.js';
import type { ContentDetail, Expert } from '../../../shared/contract/entities.js';
import { absolute, type PageContext } from '../page-context.js';
import { publisherOf } from './organization.js';

export function articleNode(ctx: PageContext, item: ContentDetail, reviewer?: Expert | null): NewsArticle | MedicalWebPage {
  const publisher = publisherOf(ctx);
  const common = {
    '@id': `${ctx.canonical}#article`,
    url: ctx.canonical,
    mainEntityOfPage: ctx.canonical,
    headline: item.title,
    description: item.summary,
    datePublished: item.date,
    ...(item.cover ? { image: [absolute(ctx, item.cover.src)] } : {}),
    inLanguage: 'zh-CN',
    ...(publisher ? { publisher } : {}),
  };
  if (categorySection(item.categoryId) === 'services') {
    // The expert the content API names as the article's reviewer, on their own page.
    const reviewedBy = reviewer
      ? { '@type': 'Physician' as const, name: reviewer.name, url: absolute(ctx, href('expertDetail', { id: reviewer.id })) }
      : undefined;
    return { '@type': 'MedicalWebPage', ...common, ...(reviewedBy ? { reviewedBy } : {}) };
  }
  const section = categoryName(item.categoryId, ctx.layout);
  return { '@type': 'NewsArticle', ...common, ...(section ? { articleSection: section } : {}) };
}
