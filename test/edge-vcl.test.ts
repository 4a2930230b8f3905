/**
 * The shipped edge configuration (deploy/varnish/default.vcl): it compiles, its backend is the
 * service on 127.0.0.1:3000, its per-page query rules are the ones the route table makes, and it
 * picks the same scaling mode as the service for every browser a visitor here may use, and the same
 * variant for every choice of the visitor's cookies (large text, theme, cursor).
 */
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TrustedProxies } from '../server/http/trusted-proxies.js';
import { variantOf } from '../server/render/page-variant.js';
import { acceptClass } from '../server/media/media-response.js';
import { withPageQuery } from '../scripts/page-query-vcl.js';
import { SHIPPED_VCL, startVarnish } from './support/varnish.js';

const vcl = readFileSync(SHIPPED_VCL, 'utf8');

const USER_AGENTS: Record<string, string> = {
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
  firefoxAndroid: 'Mozilla/5.0 (Android 14; Mobile; rv:140.0) Gecko/140.0 Firefox/140.0',
  fxios:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/128.0 Mobile/15E148 Safari/605.1.15',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36 Edg/142.0.0.0',
  edgeLegacy:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19582',
  edgios:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 EdgiOS/126.0.2592.56 Mobile/15E148 Safari/605.1.15',
  edga: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36 EdgA/126.0.0.0',
  opera: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 OPR/112.0.0.0',
  operaLegacy: 'Opera/9.80 (Windows NT 6.1; U; en) Presto/2.12.388 Version/12.16',
  operaMini: 'Opera/9.80 (J2ME/MIDP; Opera Mini/9.80 (S60; SymbOS; Opera Mobi/23.348; U; en) Presto/2.5.25 Version/10.54',
  operaTouch:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 14_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/14.0 Mobile/15E148 Safari/604.1 OPT/2.9.2',
  operaIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 12_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) OPiOS/16.0.14.122053 Mobile/16A366 Safari/9537.53',
  chrome: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
  safari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  samsung:
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  wechat:
    'Mozilla/5.0 (Linux; Android 13; V2183A) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/107.0.5304.141 Mobile Safari/537.36 XWEB/5043 MMWEBSDK/20230405 MMWEBID/2585 MicroMessenger/8.0.35.2360(0x2800235D) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64',
  qq: 'Mozilla/5.0 (Linux; U; Android 11; zh-cn; PCAM00 Build/RKQ1.201217.002) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/98.0.4758.102 MQQBrowser/13.6 Mobile Safari/537.36',
  uc: 'Mozilla/5.0 (Linux; U; Android 10; zh-CN; V1981A Build/QP1A.190711.020) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/78.0.3904.108 UCBrowser/15.0.5.1085 Mobile Safari/537.36',
  huawei:
    'Mozilla/5.0 (Linux; Android 10; HarmonyOS; NOH-AN00; HMSCore 6.11.0.302) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0.4844.88 HuaweiBrowser/14.0.0.322 Mobile Safari/537.36',
  baidu:
    'Mozilla/5.0 (Linux; Android 12; ANA-AN00) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/97.0.4692.98 Mobile Safari/537.36 baiduboxapp/13.30.0.10',
  yandex:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 YaBrowser/24.6.0.0 Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  waterfox: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0 Waterfox/G6.0.17',
  palemoon: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:102.0) Gecko/20100101 Goanna/6.5 Firefox/102.0 PaleMoon/33.0.0',
  curl: 'curl/8.5.0',
};

describe('the shipped VCL', () => {
  it('compiles with varnishd, and names the service on 127.0.0.1:3000', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vcl-'));
    // Run as root, varnishd compiles as its own unprivileged user.
    chmodSync(dir, 0o755);
    try {
      const compiled = spawnSync('varnishd', ['-C', '-n', dir, '-f', resolve(SHIPPED_VCL)], { encoding: 'utf8' });
      expect(compiled.status, compiled.stderr.slice(-2000)).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(vcl).toMatch(/backend site \{\s+\.host = "127\.0\.0\.1";\s+\.port = "3000";/);
  });

  it('keeps, for each page, the query parameters the route table says it reads (npm run vcl:routes)', () => {
    expect(withPageQuery(vcl)).toBe(vcl);
  });

  it('gives every browser the scaling mode the service gives it', () => {
    const pattern = /req\.http\.user-agent ~ "\(\?i\)(.+?)"\)/.exec(vcl)?.[1];
    expect(pattern).toBeDefined();
    // VCL strings have no escapes: the pattern is PCRE as written, and JavaScript reads it alike.
    const edgeRule = new RegExp(pattern!, 'i');
    const trusted = new TrustedProxies([]);
    for (const [browser, ua] of Object.entries(USER_AGENTS)) {
      const request = { headers: { 'user-agent': ua }, socket: {} } as IncomingMessage;
      expect(edgeRule.test(ua) ? 'transform' : 'zoom', browser).toBe(variantOf(request, trusted).layout);
    }
  });

  it('reduces Accept for media to the format the service picks for it', () => {
    const rules = [...vcl.matchAll(/req\.http\.accept ~ "\(\?i\)(.+?)"\) \{\n\s+set req\.http\.accept = "image\/(\w+)";/g)].map(
      ([, pattern, format]) => [new RegExp(pattern!, 'i'), format as 'avif' | 'webp'] as const,
    );
    expect(rules.map(([, format]) => format)).toEqual(['avif', 'webp']);
    const edge = (accept: string) => rules.find(([rule]) => rule.test(accept))?.[1] ?? 'legacy';
    for (const accept of [
      'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8',
      'image/webp,image/avif,image/jxl,*/*;q=0.5',
      'image/webp,image/apng,image/*,*/*;q=0.8',
      'IMAGE/AVIF',
      'image/avif;q=0,image/webp',
      'image/avif; q=0.0, image/webp;q=0',
      'image/avif;q=0.1',
      'image/png,image/*;q=0.8,*/*;q=0.5',
      '*/*',
      '',
    ]) {
      expect(edge(accept), accept).toBe(acceptClass(accept));
    }
  });

  it('names the variant the service would choose for every choice of cookies, whatever else the cookie header holds', async () => {
    const said: string[] = [];
    const backend = createServer((req, res) => {
      if (req.url !== '/healthz') said.push(req.headers['x-page-variant'] as string);
      req.resume();
      res.writeHead(200, { 'cache-control': 'no-store' }).end();
    });
    backend.listen(0, '127.0.0.1');
    await once(backend, 'listening');
    const edge = await startVarnish((backend.address() as AddressInfo).port);
    try {
      // Every combination of the choices, then what else a cookie header may hold: other cookies
      // around them, names and values that only resemble them, both themes at once.
      const cookies: string[] = [];
      for (const text of ['', 'textsize=large'])
        for (const theme of ['', 'theme=contrast', 'theme=plain'])
          for (const cursor of ['', 'cursor=large']) cookies.push([text, theme, cursor].filter(Boolean).join('; '));
      cookies.push(
        'a=1; theme=contrast;b=2',
        'xtheme=contrast; mytextsize=large; cursor=largest',
        'theme=contrastx; cursor=',
        'theme=plain; theme=contrast',
        'theme=contrast; theme=plain',
        'TEXTSIZE=large; Theme=contrast',
      );
      const trusted = new TrustedProxies([]);
      const expected: string[] = [];
      for (const ua of [USER_AGENTS.chrome!, USER_AGENTS.firefox!]) {
        for (const cookie of cookies) {
          expect((await fetch(`${edge.url}/lxwm/index`, { headers: { 'user-agent': ua, cookie } })).status).toBe(200);
          const request = { headers: { 'user-agent': ua, cookie }, socket: {} } as IncomingMessage;
          expected.push(variantOf(request, trusted).name);
        }
      }
      expect(said).toEqual(expected);
      // Every one of the 18 variants was named.
      expect(new Set(said).size).toBe(18);
    } finally {
      await edge.stop();
      backend.close();
    }
  });

  it('never passes on a page variant the client named, not even on a request it only passes (a beacon, the preference switches)', async () => {
    const seen: (string | undefined)[] = [];
    // Answers the edge's health probe (/healthz) too, which is not noted.
    const backend = createServer((req, res) => {
      if (req.url !== '/healthz') seen.push(req.headers['x-page-variant'] as string | undefined);
      req.resume();
      res.writeHead(200, { 'cache-control': 'no-store' }).end();
    });
    backend.listen(0, '127.0.0.1');
    await once(backend, 'listening');
    const edge = await startVarnish((backend.address() as AddressInfo).port);
    try {
      const headers = { 'x-page-variant': 'large', 'content-type': 'text/plain' };
      expect((await fetch(`${edge.url}/rum`, { method: 'POST', headers, body: '{}' })).status).toBe(200);
      expect((await fetch(`${edge.url}/text-size?large=0&back=/`, { headers })).status).toBe(200);
      expect((await fetch(`${edge.url}/a11y?theme=contrast&back=/`, { headers })).status).toBe(200);
      expect(seen).toEqual([undefined, undefined, undefined]);
    } finally {
      await edge.stop();
      backend.close();
    }
  });
});
