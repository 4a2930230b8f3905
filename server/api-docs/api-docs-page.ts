/**
 * The API reference page, /api/docs: Scalar's API reference (@scalar/api-reference) drawing
 * /api/openapi.json, with its interface in Simplified Chinese and a request panel to try each
 * path (docs/decisions/024). Its script is the package's standalone bundle, which the build puts
 * among the browser's fingerprinted files (vite.config.ts); the page has no inline script, and
 * a CSP of its own (`apiDocsHeaders` in server/http/security-headers.ts).
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { escapeHtml } from '../../shared/escape-json.js';
import { problem, sendProblem } from '../http/problem.js';
import { Representation } from '../http/representation.js';
import { sendStored, type StoredAnswer } from '../http/stored-response.js';
import { observe } from '../observability/request-observer.js';
import { API_DOCS_PATH, API_REFERENCE_SOURCE, OPENAPI_PATH } from '../http/api-docs-paths.js';

const TITLE = '内容接口参考 | 明瞳眼科医疗集团';
const DESCRIPTION =
  '明瞳眼科医疗集团内容接口的参考文档：21 个只读 GET 路径的参数、返回示例、错误、缓存与跨域说明，可在页面中直接发送请求试用，并可下载 OpenAPI 文档。';

/**
 * Where the reference's script is served: in a build, its fingerprinted file under /assets (from
 * the manifest in `clientDir`); without one, the package's own file, which Vite's development
 * server serves as it is.
 */
export function apiReferenceScriptUrl(clientDir?: string): string {
  if (!clientDir) return `/${API_REFERENCE_SOURCE}`;
  const manifest = JSON.parse(readFileSync(join(clientDir, '.vite/manifest.json'), 'utf8')) as Record<string, { file: string }>;
  const entry = manifest[API_REFERENCE_SOURCE];
  if (!entry) throw new Error(`the build in ${clientDir} has no API reference bundle (${API_REFERENCE_SOURCE}): run \`npm run build\``);
  return `/${entry.file}`;
}

/**
 * The reference's settings: Chinese interface; no fonts, telemetry, assistant, MCP or developer
 * toolbar, each of which would call Scalar's own services (the CSP would refuse them anyway).
 */
const REFERENCE_CONFIGURATION = {
  url: OPENAPI_PATH,
  localization: { locale: 'zh-CN' },
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
  defaultOpenAllTags: true,
};

/** The whole page: its title and description in Chinese, the reference's mount point and script, and a note for a browser without script. */
function pageHtml(scriptUrl: string): string {
  return (
    '<!doctype html><html lang="zh-CN"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(TITLE)}</title><meta name="description" content="${escapeHtml(DESCRIPTION)}">` +
    '</head><body>' +
    `<noscript><p>本页需要启用 JavaScript。接口文档（OpenAPI 3.1）：<a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a></p></noscript>` +
    // A data block, never run: the reference reads its settings from it.
    `<script id="api-reference" type="application/json" data-configuration="${escapeHtml(JSON.stringify(REFERENCE_CONFIGURATION))}"></script>` +
    `<script src="${escapeHtml(scriptUrl)}"></script>` +
    '</body></html>'
  );
}

/** Serves the page (GET, HEAD); any other method is a 405. */
export function createApiDocsPage(scriptUrl: string): (req: IncomingMessage, res: ServerResponse) => void {
  const answer: StoredAnswer = {
    status: 200,
    body: new Representation(Buffer.from(pageHtml(scriptUrl))),
    headers: ['content-type', 'text/html; charset=utf-8', 'cache-control', 'public, max-age=300', 'vary', 'Accept-Encoding'],
    storedAt: Date.now(),
  };
  return (req, res) => {
    observe(res, { route: API_DOCS_PATH });
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendProblem(res, problem('method_not_allowed', `${req.method} is not allowed; use GET or HEAD`), ['allow', 'GET, HEAD']);
      return;
    }
    sendStored(req, res, answer, []);
  };
}
