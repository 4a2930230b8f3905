/**
 * A partner's client of the content API, typed end to end: the types are generated from the
 * API's OpenAPI document (content-api.d.ts, by `npm run api:types`), the calls are openapi-fetch.
 * Run it against a site: `SITE_URL=http://localhost:3000 npx tsx examples/partner-client/list-news.ts`.
 */
import createClient from 'openapi-fetch';
import type { paths } from './content-api.js';

/** The newest items of a news category (19: 集团新闻), as "date title" lines. */
export async function listNews(baseUrl: string, categoryId: 7 | 19 | 20 | 21 = 19): Promise<string[]> {
  const api = createClient<paths>({ baseUrl });
  const { data, error, response } = await api.GET('/api/news', { params: { query: { categoryId, pageSize: 5 } } });
  // Every error has one shape: a code to branch on, a message for people.
  if (error) throw new Error(`${response.status} ${error.error.code}: ${error.error.message}`);
  return data.data.items.map((item) => `${item.date} ${item.title}`);
}

if (import.meta.main) {
  for (const line of await listNews(process.env.SITE_URL ?? 'http://localhost:3000')) process.stdout.write(`${line}\n`);
}
