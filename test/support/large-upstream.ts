/**
 * A content API on loopback that reports far more content than the demo's: its news and research
 * lists hold as many items as asked for, made as they are paged (each page answers with its own
 * items and the total), and every other path answers with the demo content. Real HTTP, the
 * contract's shapes: the service cannot tell it from a large real one.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NEWS_CATEGORY_IDS, RESEARCH_CATEGORY_IDS } from '../../shared/constants.js';
import type { ContentSummary } from '../../server/embedded-api/demo-content-type.js';
import { payloadFor } from '../../server/embedded-api/embedded-api.js';
import { demoContent } from '../../server/embedded-api/demo-content/index.js';
import { parseApiRequest } from '../../server/proxy/api-request.js';

export interface LargeUpstream {
  url: string;
  /** Items each list reports. */
  totals: { news: number; research: number };
  /** Calls answered. */
  calls: number;
  stop(): Promise<void>;
}

/** Ids of made items start here, clear of the demo's. */
const FIRST_ID = 100_000;
const DAY_MS = 86_400_000;

/** The item at a position of a list: its category cycles through the list's, its date goes back a day every 40 items. */
function madeItem(offset: number, index: number, categories: readonly number[]): ContentSummary {
  const id = FIRST_ID + offset + index;
  return {
    id,
    categoryId: categories[index % categories.length]!,
    title: `第 ${id} 条内容`,
    summary: `第 ${id} 条内容的摘要。`,
    cover: '/media/covers/eye-exam.svg',
    date: new Date(Date.UTC(2024, 11, 31) - Math.floor(index / 40) * DAY_MS).toISOString().slice(0, 10),
  };
}

export async function startLargeUpstream(totals: { news: number; research: number }): Promise<LargeUpstream> {
  const lists = {
    news: { offset: 0, total: totals.news, categories: NEWS_CATEGORY_IDS },
    research: { offset: totals.news, total: totals.research, categories: RESEARCH_CATEGORY_IDS },
  } as const;
  const state: LargeUpstream = { url: '', totals, calls: 0, stop: () => Promise.resolve() };
  const server: Server = createServer((req, res) => {
    state.calls++;
    const request = parseApiRequest(req.url ?? '/');
    if (!('key' in request)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"not_found","message":"none"}}');
      return;
    }
    const list =
      (request.name === 'news' || request.name === 'research') && request.query.categoryId === undefined ? lists[request.name] : undefined;
    let payload: unknown;
    if (list) {
      const page = request.query.page ?? 1;
      const pageSize = request.query.pageSize ?? 9;
      const from = (page - 1) * pageSize;
      const count = Math.max(0, Math.min(pageSize, list.total - from));
      payload = {
        items: Array.from({ length: count }, (_, i) => madeItem(list.offset, from + i, list.categories)),
        total: list.total,
        page,
        pageSize,
      };
    } else {
      payload = payloadFor(demoContent, request);
    }
    if (payload === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"not_found","message":"none"}}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: payload }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
