/**
 * The embedded content API: a stand-in for the real one, started on loopback when no
 * UPSTREAM_URL is set. The proxy reaches it over real HTTP, exactly as it would reach the
 * real one. It serves the demo content in the contract's shapes, with paging and filtering, and
 * names each answer's version with an ETag. Given a secret, it can be edited, and then tells the
 * site with a signed publish event (editor.ts).
 */
import { createServer, type Server } from 'node:http';
import { handleUpload } from './uploads.js';
import type { AddressInfo } from 'node:net';
import { NEWS_CATEGORY_IDS, RESEARCH_CATEGORY_IDS, RESEARCH_SUBCATEGORY_IDS } from '../../shared/constants.js';
import type { ApiName } from '../../shared/contract/api-paths.js';
import type { ContentSummary, Expert } from './demo-content-type.js';
import { isFresh, weakEtag } from '../http/representation.js';
import { parseApiRequest, type ApiRequest } from '../proxy/api-request.js';
import { demoContent } from './demo-content/index.js';
import type { DemoContent } from './demo-content-type.js';
import { handleEdit, type Publishing } from './editor.js';

const NEWS_PER_CATEGORY_ON_HOME = 5;

function summary({ id, categoryId, title, summary, cover, date }: ContentSummary): ContentSummary {
  return { id, categoryId, title, summary, cover, date };
}

/** An expert as lists name one: the card's facts and the clinic days, without the profile. */
function expertSummary({
  id,
  name,
  title,
  hospital,
  specialty,
  avatar,
  schedule,
}: Expert): Omit<Expert, 'education' | 'content' | 'achievements'> {
  return { id, name, title, hospital, specialty, avatar, schedule };
}

function newestFirst<T extends { date?: string | undefined; id: number }>(items: T[]): T[] {
  return [...items].sort((a, b) => (b.date ?? '').localeCompare(a.date ?? '') || b.id - a.id);
}

function paged<T>(items: T[], query: Record<string, number>) {
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? items.length;
  return { items: items.slice((page - 1) * pageSize, page * pageSize), total: items.length, page, pageSize };
}

/** Items of a category; a parent research category (17, 18) includes its children's items. */
function itemsIn(content: DemoContent, categoryId: number | undefined, allowed: readonly number[]): ContentSummary[] {
  const children: readonly number[] = categoryId === 17 || categoryId === 18 ? RESEARCH_SUBCATEGORY_IDS[categoryId] : [];
  const wanted = categoryId === undefined ? allowed : [categoryId, ...children];
  return newestFirst(content.contentItems.filter((i) => wanted.includes(i.categoryId))).map(summary);
}

/** The payload for a request, or undefined when the thing asked for does not exist. */
export function payloadFor(content: DemoContent, request: ApiRequest): unknown {
  const { query, id } = request;
  const handlers: Record<ApiName, () => unknown> = {
    groupIntroduction: () => content.groupIntroduction,
    banner: () => content.banners,
    specialtyTreatment: () => ({ data: content.treatments }),
    expertGroup: () => ({
      title: content.expertGroup.title,
      summary: content.expertGroup.summary,
      experts: content.expertGroup.featuredExpertIds
        .map((eid) => content.experts.find((e) => e.id === eid))
        .filter((e) => e !== undefined)
        .map(expertSummary),
    }),
    newsMedia: () => ({
      categories: content.newsCategories.map((c) => ({
        ...c,
        items: itemsIn(content, c.id, []).slice(0, NEWS_PER_CATEGORY_ON_HOME),
      })),
    }),
    patientServiceCategories: () => content.patientServiceCategories,
    knowledgeArticles: () => paged(itemsIn(content, 6, []), query),
    awardHonors: () => content.awards,
    promotions: () => content.promotions,
    domesticHospitals: () => content.domesticHospitals,
    internationalHospitals: () => content.internationalHospitals,
    experts: () => paged(content.experts.map(expertSummary), query),
    expert: () => content.experts.find((e) => e.id === id),
    researchCategories: () => content.researchCategories,
    research: () => paged(itemsIn(content, query.categoryId, RESEARCH_CATEGORY_IDS), query),
    newsCategories: () => content.newsCategories,
    news: () => paged(itemsIn(content, query.categoryId, NEWS_CATEGORY_IDS), query),
    newsDetail: () => content.contentItems.find((i) => i.id === id),
    contactUs: () => content.contactUs,
    educationSubcategories: () => content.researchSubcategories.filter((c) => c.parentId === 17),
    researchSubcategories: () => content.researchSubcategories.filter((c) => c.parentId === 18),
  };
  return handlers[request.name]();
}

export interface EmbeddedApi {
  url: string;
  server: Server;
  close(): Promise<void>;
}

function json(status: number, value: unknown): [number, Buffer] {
  return [status, Buffer.from(JSON.stringify(value))];
}

export interface EmbeddedApiOptions {
  host?: string;
  port?: number;
  content?: DemoContent;
  /** Turns on editing and publish events. */
  publishing?: Publishing;
}

export async function startEmbeddedApi(options: EmbeddedApiOptions = {}): Promise<EmbeddedApi> {
  // A copy of its own: an edit changes this content API only.
  const content = structuredClone(options.content ?? demoContent);
  const server = createServer((req, res) => {
    if (handleEdit(req, res, content, options.publishing)) return;
    if (handleUpload(req, res)) return;
    const request = req.method === 'GET' ? parseApiRequest(req.url ?? '/') : undefined;
    let [status, body] = json(405, { error: { code: 'method_not_allowed', message: 'GET only' } });
    if (request && 'key' in request) {
      const payload = payloadFor(content, request);
      [status, body] =
        payload === undefined
          ? json(404, { error: { code: 'not_found', message: `${request.key} does not exist` } })
          : json(200, { data: payload });
    } else if (request) {
      [status, body] = json(request.status, { error: { code: request.code, message: request.message } });
    }
    // Validators, as a real CMS sends them: a refresh of an unchanged answer costs a 304.
    const etag = weakEtag(body);
    if (status === 200 && isFresh(req, { etag })) {
      res.writeHead(304, { etag }).end();
      return;
    }
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.length,
      ...(status === 200 ? { etag } : {}),
    });
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
