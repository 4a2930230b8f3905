/**
 * The answer to a query, made from the index: the page of results asked for, each with its title
 * and a snippet marked (highlight.ts), the counts by kind, and, for experts, the finder's choices.
 */
import type { SearchAnswer, SearchQuery } from '../../shared/search.js';
import { highlightSnippet, highlightTitle } from './highlight.js';
import type { SearchIndex } from './search-index.js';

export function answerFrom(index: SearchIndex, query: SearchQuery): SearchAnswer {
  const { found, byKind, partial, narrowed } = index.search(query);
  const from = (query.page - 1) * query.pageSize;
  const items = found.slice(from, from + query.pageSize).map(({ doc, terms }) => ({
    kind: doc.kind,
    id: doc.id,
    title: doc.title,
    url: doc.url,
    meta: doc.meta,
    ...(doc.picture ? { picture: doc.picture } : {}),
    ...(doc.expert
      ? {
          expert: {
            title: doc.expert.title,
            hospital: doc.expert.hospital,
            specialties: doc.expert.specialties,
            schedule: doc.expert.schedule ?? [],
          },
        }
      : {}),
    highlight: { title: highlightTitle(doc.title, terms), snippet: highlightSnippet([doc.summary, doc.body], terms) },
  }));
  const total = query.kind ? byKind[query.kind] : Object.values(byKind).reduce((a, b) => a + b, 0);
  return {
    query: query.q,
    ...(query.kind ? { kind: query.kind } : {}),
    total,
    byKind,
    page: query.page,
    pageSize: query.pageSize,
    partial,
    narrowed,
    items,
    ...(query.kind === 'expert' ? { facets: index.facets(query) } : {}),
  };
}
