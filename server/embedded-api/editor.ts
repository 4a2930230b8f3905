/**
 * Editing the embedded content API as an editor edits a real one (docs/product/publishing.md):
 * `POST /admin/items/{news|expert}/{id}` with `Authorization: Bearer <WEBHOOK_SECRET>` and a
 * JSON body of the fields to change. The item changes in place, and the content API sends the
 * signed publish event to each of the site's webhook addresses, as a CMS does on publish; the
 * answer says what changed and how each webhook answered. Off (404) without a secret.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { request } from 'undici';
import { z } from 'zod';
import { SIGNATURE_HEADER, signWebhook, TIMESTAMP_HEADER, type PublishEvent } from '../admin/publish-events.js';
import { bearerMatches } from '../http/bearer.js';
import type { DemoContent } from './demo-content-type.js';

export interface Publishing {
  /** Shared with the site: it authorises edits here and signs the publish events. */
  secret: string;
  /** Where publish events go (a site's `/admin/webhook`); read at each publish. */
  webhooks: () => readonly string[];
}

/**
 * With a secret (WEBHOOK_SECRET), the embedded content API can be edited and sends its publish
 * events to the site it serves, at the address `site()` names once it listens.
 */
export function embeddedPublishing(secret: string | undefined, site: () => string | undefined): Publishing | undefined {
  if (!secret) return undefined;
  return { secret, webhooks: () => [site()].filter((u) => u !== undefined).map((u) => `${u}/admin/webhook`) };
}

const line = z.string().trim().min(1).max(200);
/** A picture as an editor names it: an upload's URL or path (the site checks it as any other). */
const picture = z.string().trim().min(1).max(2_000);
const EDITS = {
  news: z
    .object({ title: line, summary: line.max(500), cover: picture })
    .partial()
    .strict(),
  expert: z
    .object({ name: line.max(40), title: line, specialty: line.max(500), avatar: picture })
    .partial()
    .strict(),
};
const PATH = /^\/admin\/items\/(news|expert)\/(\d{1,9})$/;
const MAX_BODY = 16 * 1024;
const WEBHOOK_TIMEOUT_MS = 5_000;

type Reply = (status: number, value: unknown) => void;

/** True when the request was an edit (answered here), false when it is not for the editor. */
export function handleEdit(req: IncomingMessage, res: ServerResponse, content: DemoContent, publishing: Publishing | undefined): boolean {
  const match = PATH.exec(req.url ?? '');
  if (!match) return false;
  const reply: Reply = (status, value) => {
    const body = Buffer.from(JSON.stringify(value));
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }).end(body);
  };
  const error = (status: number, code: string, message: string) => reply(status, { error: { code, message } });
  if (!publishing) return (error(404, 'not_found', 'editing is off: the content API has no secret'), true);
  if (req.method !== 'POST') return (error(405, 'method_not_allowed', 'POST only'), true);
  if (!bearerMatches(req.headers.authorization, publishing.secret)) return (error(401, 'unauthorized', 'a bearer token is required'), true);

  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_BODY) chunks.push(chunk);
  });
  req.on('end', () => {
    if (size > MAX_BODY) return error(413, 'payload_too_large', 'the body is over 16 KB');
    const type = match[1] as 'news' | 'expert';
    const id = Number(match[2]);
    let fields: unknown;
    try {
      fields = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return error(400, 'bad_request', 'the body must be JSON');
    }
    const parsed = EDITS[type].safeParse(fields);
    if (!parsed.success || Object.keys(parsed.data).length === 0) {
      const issue = parsed.error?.issues[0];
      return error(400, 'bad_request', issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'name at least one field to change');
    }
    const item = type === 'news' ? content.contentItems.find((i) => i.id === id) : content.experts.find((e) => e.id === id);
    if (!item) return error(404, 'not_found', `no ${type} item ${id}`);
    Object.assign(item, parsed.data);
    const event: PublishEvent = { id: randomUUID(), event: 'update', items: [{ type, id }] };
    void sendPublishEvent(publishing, event).then((webhooks) => reply(200, { changed: { type, id, ...parsed.data }, webhooks }));
  });
  return true;
}

/** Sends a publish event, signed, to every webhook address; says how each answered. */
async function sendPublishEvent(publishing: Publishing, event: PublishEvent) {
  const body = JSON.stringify(event);
  const timestamp = String(Math.floor(Date.now() / 1000));
  return Promise.all(
    publishing.webhooks().map(async (url) => {
      try {
        const res = await request(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            [TIMESTAMP_HEADER]: timestamp,
            [SIGNATURE_HEADER]: signWebhook(publishing.secret, timestamp, body),
          },
          body,
          signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
        });
        return { url, status: res.statusCode, answer: await res.body.json() };
      } catch (error) {
        return { url, error: String(error) };
      }
    }),
  );
}
