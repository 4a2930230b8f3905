/**
 * A client's bad address is a 4xx, never a 500, and never wakes an operator (docs/decisions/057).
 * Errors that carry a status of their own (send's, through express-static-gzip) are answered with
 * it in the site's shape and logged as the client's fault; a dot segment is refused at the front
 * door whatever it is under; and a corpus of what scanners send, to every prefix the service
 * answers, gets no 5xx, no line at error level and no move of the 5xx counter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counter } from './support/polling.js';
import { rawRequest, type RawResponse } from './support/raw-http.js';
import { startService, type RunningService } from './support/start-service.js';

const BROWSER = [['accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8']] as const;
const BROTLI = [['accept-encoding', 'br']] as const;

let svc: RunningService;
/** A script the build made, and an image address the home page names. */
let script: string;
let picture: string;

beforeAll(async () => {
  // At info: the refusals' own lines are read. Measured beacons on, so that /rum is a live route.
  svc = await startService({ LOG_LEVEL: 'info', RUM_SAMPLE_RATE: '1' }, { clientDir: 'dist/client' });
  const home = (await rawRequest(svc.url, '/')).text;
  script = /\/assets\/entry-client-[\w-]+\.js/.exec(home)![0];
  picture = /\/_media\/\d+\/[\w-]+\/[\w-]+/.exec(home)![0];
});
afterAll(() => svc?.close());

const get = (target: string | Buffer, headers: ReadonlyArray<readonly [string, string]> = []) => rawRequest(svc.url, target, { headers });
const json = (res: RawResponse) => JSON.parse(res.text) as { error: { code: string; message: string } };
const refusedLines = () => svc.logs.filter((line) => line.msg === 'request refused');

describe('an error that carries its own status', () => {
  it('a missing static file: 404, JSON for a script’s request, the site’s not-found page for a browser; logged at info with its route', async () => {
    const before = refusedLines().length;
    const api = await get('/assets/nope-00000000.js', BROTLI);
    expect([api.status, json(api).error.code]).toEqual([404, 'not_found']);
    const page = await get('/media/brand/nope.svg', BROWSER);
    expect(page.status).toBe(404);
    expect(page.text).toContain('<title>页面未找到</title>');
    const lines = refusedLines().slice(before);
    expect(lines.map((l) => [l.level, l.status, l.route])).toEqual([
      [30, 404, 'static'],
      [30, 404, 'static'],
    ]);
  });

  // A site image with its brotli copy: the fingerprinted scripts are sent whole, without ranges.
  it('a range past the end of a file: 416 with Content-Range, in JSON, not labelled as the brotli file it refused', async () => {
    const res = await get('/media/brand/hero-eye.svg', [...BROTLI, ['range', 'bytes=99999999-']]);
    expect(res.status).toBe(416);
    expect(json(res).error.code).toBe('range_not_satisfiable');
    expect(res.headers['content-range']).toMatch(/^bytes \*\/\d+$/);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('a precondition that fails: 412 in JSON; to a browser, the plain refusal page', async () => {
    const res = await get(script, [['if-match', '"not-this-one"']]);
    expect([res.status, json(res).error.code]).toEqual([412, 'precondition_failed']);
    const page = await get(script, [...BROWSER, ['if-match', '"not-this-one"']]);
    expect(page.status).toBe(412);
    expect(page.text).toContain('无法访问此网址');
    expect(page.headers['etag']).toBeUndefined();
  });

  it('a static path that cannot be decoded: the site’s 400, not express-static-gzip’s own text', async () => {
    const res = await get('/assets/%ff.js');
    expect([res.status, json(res).error.code]).toEqual([400, 'bad_request']);
    expect((await get('/media/%e4%b8', BROWSER)).text).toContain('网址有误');
  });
});

describe('a dot segment', () => {
  const prefixes = [
    '/',
    '/jtjj/',
    '/api/',
    '/api/news/',
    '/api/docs/',
    '/_media/640/0/',
    '/assets/',
    '/media/',
    '/search/',
    '/share-card/',
  ];
  const segments = ['..', '.', '%2e%2e', '%2E.', '.%2e', '..%2f', '..%5c', '..\\', '%2e%2e%5c', '..;/'];

  it.each(prefixes)('under %s, encoded or not, is refused 400 before any layer, in the prefix’s shape', async (prefix) => {
    // The API's answers are JSON whoever asks; elsewhere a browser gets the bad-address page.
    const pageShape = !prefix.startsWith('/api/');
    for (const segment of segments) {
      const target = `${prefix}${segment}${segment.endsWith('/') || segment.endsWith('\\') ? '' : '/'}package.json`;
      const res = await get(target);
      if (segment === '..;/') {
        // Not a dot segment (Tomcat reads it as one): the address is simply not there.
        expect([400, 404], target).toContain(res.status);
        continue;
      }
      expect([res.status, json(res).error.message], target).toEqual([400, expect.stringContaining('dot segment')]);
      const asked = await get(target, BROWSER);
      expect(asked.status, target).toBe(400);
      if (pageShape) expect(asked.text, target).toContain('网址有误');
      else expect(json(asked).error.code, target).toBe('bad_request');
    }
  });
});

/** Everything a scanner tries at an address, appended to a prefix. */
const PATH_TAILS = [
  // dot segments and traversal, encoded once or twice, with either separator
  ...['..', '%2e%2e', '..%2f..%2fetc%2fpasswd', '%2e%2e%2f%2e%2e%2fpackage.json', '%252e%252e%252fpackage.json', '%25252e%25252e'],
  ...['..%5c..%5cpackage.json', '..\\..\\package.json', '%5c..%5c', '.\\', '..%c0%af', '..%255c', '/..', '//..//', 'x/../../package.json'],
  // files that are no one's business, and Windows' reserved names
  ...[
    '.env',
    '.git/config',
    '.htaccess',
    'CON',
    'con.txt',
    'NUL',
    'nul.js',
    'AUX',
    'PRN',
    'COM1',
    'LPT1.txt',
    'CONIN$',
    'x::$DATA',
    'x.',
    'x%20',
  ],
  // what cannot be decoded: invalid and overlong UTF-8, NUL, a lone %
  ...[
    '%ff',
    '%fe%ff',
    '%e4%b8',
    '%c0%ae%c0%ae',
    '%c0%af',
    '%e0%80%ae',
    '%f0%80%80%ae',
    '%ed%a0%80',
    '%00',
    'x%00.js',
    '%',
    'x%',
    '%%',
    '%2',
    '%g0',
  ],
  // very long segments, odd numbers
  ...['a'.repeat(300), 'b'.repeat(5_000), '99999999999999999999999999', '1e309', '-0', '0x1f', 'NaN', '..;/x', ';x=1'],
];

/** Query strings that trip a parser: duplicated and prototype-named parameters, huge numbers, broken escapes. */
const QUERY_TAILS = [
  ...['a=1&a=2', 'id=1&id=2', '__proto__=1', '__proto__[x]=1', 'constructor=1&prototype=2', 'toString=1&hasOwnProperty=1&valueOf=1'],
  ...['id=99999999999999999999999', 'id=1e309', 'id=-1', 'id=NaN', 'page=9007199254740993', 'pageSize=1e9', 'a[]=1&a[]=2'],
  ...['%', 'a=%ff', 'a=%c0%ae', '%00=1', 'q=' + 'x'.repeat(4_000), Array.from({ length: 200 }, (_, i) => `p${i}=${i}`).join('&')],
];

/** Each prefix the service answers: where path tails are appended, and a live address query tails go on. */
const prefixes = (): [name: string, base: string, live: string][] => [
  ['pages', '/jtjj/', '/zjxz/detail?id=1'],
  ['the home page', '/', '/'],
  ['the API', '/api/', '/api/news'],
  ['an API path with an id', '/api/news/', '/api/experts/1'],
  ['the API’s search', '/api/search/', '/api/search'],
  ['the API reference', '/api/docs/', '/api/docs'],
  ['the media endpoint', '/_media/640/0/', picture],
  ['/assets', '/assets/', script],
  ['/media', '/media/', '/media/brand/logo.svg'],
  ['the search page', '/search/', '/search'],
  ['real-user measurement', '/rum/', '/rum'],
  ['share cards', '/share-card/', '/share-card/home.png'],
  ['the sitemap', '/sitemap.xml/', '/sitemap.xml'],
  ['a sitemap’s part', '/sitemap-1.xml/', '/sitemap-1.xml'],
  ['robots.txt', '/robots.txt/', '/robots.txt'],
  ['the text size switch', '/text-size/', '/text-size'],
  ['health', '/healthz/', '/readyz'],
  ['the operators’ pages', '/status/', '/metrics'],
];

const fiveHundreds = (metrics: string) => counter(metrics, 'http_requests_total', { status: /^5/ });

describe('a corpus of hostile addresses to every prefix', () => {
  it('gets no 5xx, leaves no line at error level, and does not move the 5xx counter', { timeout: 300_000 }, async () => {
    const before = fiveHundreds(await (await fetch(`${svc.url}/metrics`)).text());
    const targets: (string | Buffer)[] = [];
    for (const [, base, live] of prefixes()) {
      for (const tail of PATH_TAILS) targets.push(base + tail);
      for (const query of QUERY_TAILS) targets.push(`${live}${live.includes('?') ? '&' : '?'}${query}`);
    }
    // Raw bytes that are no UTF-8, which Node's parser refuses before the service sees them.
    targets.push(Buffer.from([0x2f, 0x61, 0x73, 0x73, 0x65, 0x74, 0x73, 0x2f, 0xff, 0xfe]));
    const answered: string[] = [];
    const next = targets.entries();
    // A few at a time, half of them as a browser asks: both shapes of every answer are exercised.
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (const [i, target] of next) {
          const res = await get(target, i % 2 ? BROWSER : []);
          const shown = String(target).slice(0, 80);
          if (res.status >= 500) answered.push(`${res.status} ${shown}`);
          // The static folders serve only their own files.
          if (/"name": "mingtong-eye-site"|root:x:0:0/.test(res.text)) answered.push(`leaked ${shown}`);
        }
      }),
    );
    expect(targets.length).toBeGreaterThan(1_000);
    expect(answered).toEqual([]);
    expect(svc.logs.filter((line) => (line.level as number) >= 50)).toEqual([]);
    expect(fiveHundreds(await (await fetch(`${svc.url}/metrics`)).text())).toBe(before);
    // What was refused for an error of its own is the client's fault, with the route it was under.
    const refused = refusedLines();
    expect(refused.length).toBeGreaterThan(0);
    for (const line of refused) expect([line.level, typeof line.route], JSON.stringify(line)).toEqual([30, 'string']);
  });
});
