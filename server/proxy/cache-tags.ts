/**
 * What an answer was made from, as tags an edge (or the service's own caches) can purge by
 * (docs/decisions/018): the answer's own address (`url:/api/news/212`), its path
 * (`/api/news`), and every content item it carries (`news:212` for articles, research and news,
 * which share one id space; `expert:3`), and every image it names (`media:<hash>`: an image whose
 * bytes change is published by its tag, and the answers naming its old version go with it). A
 * page carries the tags of every answer it read.
 */
import type { ApiData, ApiName } from '../../shared/contract/api-paths.js';
import { API_PATHS } from '../../shared/contract/api-paths.js';
import { MEDIA_PREFIX, sourceOfAddress } from '../../shared/media-url.js';
import { ALL_TAG } from '../fleet/purge-message.js';
import { mediaTag } from '../media/media-address.js';
import type { ApiRequest } from './api-request.js';

/** The tag of one canonical address, an API answer's or a page's. */
export const urlTag = (canonical: string) => `url:${canonical}`;
export const newsTag = (id: number) => `news:${id}`;
export const expertTag = (id: number) => `expert:${id}`;

type ItemTags = { [N in ApiName]?: (data: ApiData<N>) => string[] };

const ITEMS: ItemTags = {
  expertGroup: (d) => d.experts.map((e) => expertTag(e.id)),
  newsMedia: (d) => d.categories.flatMap((c) => c.items.map((i) => newsTag(i.id))),
  knowledgeArticles: (d) => d.items.map((i) => newsTag(i.id)),
  experts: (d) => d.items.map((e) => expertTag(e.id)),
  expert: (d) => [expertTag(d.id)],
  research: (d) => d.items.map((i) => newsTag(i.id)),
  news: (d) => d.items.map((i) => newsTag(i.id)),
  newsDetail: (d) => [newsTag(d.id)],
};

/** The tags of an API answer; a 404 carries its address and path only. */
export function tagsOf(request: ApiRequest, data: unknown): string[] {
  const own = [ALL_TAG, urlTag(request.key), API_PATHS[request.name].template];
  if (data === null) return own;
  const items = ITEMS[request.name] as ((d: unknown) => string[]) | undefined;
  return [...own, ...(items ? items(data) : []), ...mediaTagsIn(data)];
}

/** The `media:` tags of the images and files a payload names (content-reader.ts made each `{ src: '/_media/…/<ref>' }`). */
function mediaTagsIn(data: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(data)) for (const item of data) mediaTagsIn(item, found);
  else if (typeof data === 'object' && data !== null) {
    const { src } = data as { src?: unknown };
    const source = typeof src === 'string' && src.startsWith(`${MEDIA_PREFIX}/`) ? sourceOfAddress(src) : undefined;
    if (source !== undefined) found.add(mediaTag(source));
    else for (const value of Object.values(data)) mediaTagsIn(value, found);
  }
  return found;
}
