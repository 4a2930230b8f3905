/**
 * A collector on loopback: a node:http server that takes OTLP/HTTP JSON at POST /v1/traces (as
 * the OpenTelemetry exporters send it) and keeps the spans, flattened, for assertions.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { vi } from 'vitest';

type Scalar = string | number | boolean;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Absent for a root span. */
  parentSpanId?: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, Scalar>;
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  links: { traceId: string; spanId: string; attributes: Record<string, Scalar> }[];
  events: { name: string; attributes: Record<string, Scalar> }[];
  resource: Record<string, Scalar>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttribute[];
  status?: { code?: number; message?: string };
  links?: { traceId: string; spanId: string; attributes?: OtlpAttribute[] }[];
  events?: { name: string; attributes?: OtlpAttribute[] }[];
}
interface OtlpRequest {
  resourceSpans?: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

function scalar(value: OtlpValue): Scalar {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  return '';
}

const attributes = (list: OtlpAttribute[] = []) => Object.fromEntries(list.map((a) => [a.key, scalar(a.value)]));

export interface OtlpReceiver {
  /** The base endpoint (for OTEL_EXPORTER_OTLP_ENDPOINT). */
  url: string;
  spans: ReceivedSpan[];
  /** Export requests received, with their content type. */
  posts: { path: string; contentType: string }[];
  /** Waits until `check` holds on the spans received (or fails after `timeoutMs`). */
  waitFor(check: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  const raw = Buffer.concat(chunks);
  return req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const posts: OtlpReceiver['posts'] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req);
      posts.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '' });
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !String(req.headers['content-type']).startsWith('application/json')) {
        res.writeHead(415).end();
        return;
      }
      const message = JSON.parse(body.toString('utf8')) as OtlpRequest;
      for (const rs of message.resourceSpans ?? []) {
        const resource = attributes(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({
              traceId: s.traceId,
              spanId: s.spanId,
              ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
              name: s.name,
              kind: s.kind,
              attributes: attributes(s.attributes),
              status: { code: s.status?.code ?? 0, ...(s.status?.message ? { message: s.status.message } : {}) },
              links: (s.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId, attributes: attributes(l.attributes) })),
              events: (s.events ?? []).map((e) => ({ name: e.name, attributes: attributes(e.attributes) })),
              resource,
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    spans,
    posts,
    waitFor: (check, timeoutMs = 10_000) =>
      vi.waitFor(
        () => {
          if (!check(spans)) throw new Error(`the spans expected did not arrive; received: ${spans.map((s) => s.name).join(', ')}`);
          return spans;
        },
        { timeout: timeoutMs, interval: 20 },
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
