/**
 * The two services told of changed pages, each off unless configured:
 * - IndexNow (indexnow.org): a JSON POST of up to 10,000 addresses of one host, with the site's
 *   key, which the engine checks at `<origin>/<key>.txt` (served by seo-routes.ts); every engine
 *   of the protocol (Bing, Yandex, Seznam, Naver…) shares what one receives.
 * - Baidu's link push (普通收录 API): a text/plain POST of addresses, one a line, to the endpoint
 *   with the site (as registered with Baidu) and the token in its query.
 */
import type { Config } from '../settings/config.js';

/** One search engine's submission: how a batch is sent and how its answer reads. */
export interface SearchEngine {
  name: 'indexnow' | 'baidu';
  /** Most addresses in one request. */
  batchMax: number;
  /** Where a batch goes; never logged (Baidu's carries the token). */
  url: string;
  contentType: string;
  body(urls: readonly string[]): string;
  /** What an accepted answer still reports (addresses refused), for the log; undefined when all went. */
  remarks(body: string): string | undefined;
}

export function indexNow(key: string, endpoint: string, origin: string): SearchEngine {
  const { host } = new URL(origin);
  return {
    name: 'indexnow',
    batchMax: 10_000,
    url: endpoint,
    contentType: 'application/json; charset=utf-8',
    body: (urls) => JSON.stringify({ host, key, keyLocation: `${origin}/${key}.txt`, urlList: urls }),
    // 200 (received) or 202 (received, the key not yet checked): nothing more is said.
    remarks: () => undefined,
  };
}

export function baiduPush(token: string, endpoint: string, origin: string): SearchEngine {
  const url = new URL(origin);
  const target = new URL(endpoint);
  // Baidu names an http site by its host, an https site by its origin.
  target.searchParams.set('site', url.protocol === 'https:' ? url.origin : url.host);
  target.searchParams.set('token', token);
  return {
    name: 'baidu',
    batchMax: 2_000,
    url: target.href,
    contentType: 'text/plain; charset=utf-8',
    body: (urls) => urls.join('\n'),
    remarks(body) {
      try {
        const answer = JSON.parse(body) as { not_same_site?: unknown[]; not_valid?: unknown[]; remain?: number };
        const refused = [...(answer.not_same_site ?? []), ...(answer.not_valid ?? [])];
        return refused.length > 0 ? `${refused.length} refused: ${refused.slice(0, 5).map(String).join(' ')}` : undefined;
      } catch {
        return 'the answer is not JSON';
      }
    },
  };
}

/** The engines the configuration turns on. */
export function searchEngines(config: Config, origin: string): SearchEngine[] {
  return [
    ...(config.INDEXNOW_KEY ? [indexNow(config.INDEXNOW_KEY, config.INDEXNOW_ENDPOINT, origin)] : []),
    ...(config.BAIDU_PUSH_TOKEN ? [baiduPush(config.BAIDU_PUSH_TOKEN, config.BAIDU_PUSH_ENDPOINT, origin)] : []),
  ];
}
