/**
 * Baseline for bench/render.js: a bare node:http server that renders, per request, the app's
 * route tree (client/app-routes) with React Router's static handler and React's
 * renderToPipeableStream, reading content from an in-memory map. Nothing else: no Express, no
 * logging, metrics, security headers or proxy cache.
 *
 * The map is filled once from the running service's /api answers (the first request of each
 * key fetches it; render.js warms every page before measuring). The document head, up to
 * `<body>`, is the service's own for that URL, fetched once, so both write the same bytes.
 * The stream is compressed with the service's own encoder (server/http/representation.ts)
 * when the request accepts it, and flushed as React flushes.
 *
 * Built with Vite's SSR build into bench/.build/bare-render/ (harness/profile.ts buildBareRender) and
 * started as `node bench/.build/bare-render/bare-render.js <service url> [port]`; prints
 * `ready <port>`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StrictMode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, RouterContextProvider, StaticRouterProvider } from 'react-router';
import { createRoutes, ROUTER_DATA_ID } from '../client/app-routes.js';
import { contentApiContext } from '../client/router-context.js';
import { PhrasesContext } from '../client/typeset/phrases.js';
import { PhraseTable, renderPhrases } from '../client/typeset/server-phrases.js';
import { streamEncoder } from '../server/http/representation.js';
import { pathFor } from '../shared/contract/api-templates.js';
import { ContentError, type ContentApi } from '../shared/content-api.js';
import { serializeForScript } from '../shared/escape-json.js';

const [source, port = '0'] = process.argv.slice(2);
if (!source) throw new Error('usage: bare-render.js <service url> [port]');

const data = new Map<string, Promise<unknown>>();

async function load(key: string): Promise<unknown> {
  const res = await fetch(source + key, { headers: { accept: 'application/json' } });
  const body = (await res.json()) as { data?: unknown; error?: { code: string; message: string } };
  if (!res.ok || !('data' in body))
    throw new ContentError(res.status, body.error?.code ?? 'bad_answer', body.error?.message ?? `HTTP ${res.status}`);
  return body.data;
}

const memoryApi: ContentApi = {
  get(name, request = {}) {
    const search = new URLSearchParams(Object.entries(request.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
    const key = pathFor(name, request.id) + (search ? `?${search}` : '');
    let answer = data.get(key);
    if (!answer) {
      answer = load(key);
      answer.catch(() => {});
      data.set(key, answer);
    }
    return answer as never;
  },
  // The pages measured read no search.
  search: () => Promise.reject(new ContentError(404, 'not_found', 'no search in the bare renderer')),
  changesAt: () => {},
};

const heads = new Map<string, Promise<string>>();
function headOf(url: string, userAgent: string): Promise<string> {
  let head = heads.get(url);
  if (!head) {
    head = fetch(source + url, { headers: { 'user-agent': userAgent, 'accept-encoding': 'identity' } })
      .then((r) => r.text())
      .then((html) => {
        const end = html.indexOf('</head><body>');
        if (end === -1) throw new Error(`no head in ${url}`);
        return html.slice(0, end + '</head><body>'.length);
      });
    heads.set(url, head);
  }
  return head;
}

const handler = createStaticHandler(createRoutes());

const server = createServer((req, res) => void answer(req, res));

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const url = req.url ?? '/';
    const head = await headOf(url, req.headers['user-agent'] ?? '');
    const requestContext = new RouterContextProvider(new Map([[contentApiContext, memoryApi]]));
    const context = await handler.query(new Request(`http://localhost${url}`), { requestContext });
    if (context instanceof Response) {
      res.writeHead(context.status, { location: context.headers.get('location') ?? '/' });
      res.end();
      return;
    }
    const router = createStaticRouter(handler.dataRoutes, context);
    const hydration = { loaderData: context.loaderData, actionData: context.actionData, errors: context.errors };
    // Titles are typeset as the service's pages are, the table of their breaks written after the root.
    const phrases = renderPhrases(() => undefined);
    const stream = renderToPipeableStream(
      <>
        <div id="root">
          <StrictMode>
            <PhrasesContext value={phrases}>
              <StaticRouterProvider router={router} context={context} hydrate={false} />
            </PhrasesContext>
          </StrictMode>
        </div>
        <PhraseTable phrases={phrases} />
        <script type="application/json" id={ROUTER_DATA_ID} dangerouslySetInnerHTML={{ __html: serializeForScript(hydration) }} />
      </>,
      {
        onShellReady() {
          const { encoding, encoder } = streamEncoder(req.headers['accept-encoding']);
          res.writeHead(context.statusCode, {
            'content-type': 'text/html; charset=utf-8',
            vary: 'Accept-Encoding',
            ...(encoding ? { 'content-encoding': encoding } : {}),
          });
          if (!encoder) {
            res.write(head);
            stream.pipe(res);
            return;
          }
          encoder.pipe(res);
          encoder.write(head);
          stream.pipe(encoder);
        },
        onShellError(error) {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(String(error));
        },
      },
    );
  } catch (error) {
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(String(error));
  }
}
server.keepAliveTimeout = 65_000;
server.listen(Number(port), '127.0.0.1', () => console.log(`ready ${(server.address() as AddressInfo).port}`));
