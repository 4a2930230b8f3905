/** The ContentApi in the browser: the service's own /api paths. */
import { pathFor } from '../shared/contract/api-templates.js';
import { ContentError, type ContentApi } from '../shared/content-api.js';
import { SEARCH_API_PATH } from '../shared/search.js';

/** An answer's `data`, or the ContentError it reports. */
async function read(url: string, signal: AbortSignal | undefined): Promise<never> {
  let res: Response;
  try {
    res = await fetch(url, { signal, headers: { accept: 'application/json' } });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ContentError(503, 'network_error', 'the network request failed');
  }
  const body = (await res.json().catch(() => null)) as { data?: unknown; error?: { code?: string; message?: string } } | null;
  if (!res.ok || !body || !('data' in body)) {
    throw new ContentError(res.ok ? 502 : res.status, body?.error?.code ?? 'bad_answer', body?.error?.message ?? `HTTP ${res.status}`);
  }
  return body.data as never;
}

const queryString = (entries: [string, string | number | undefined][]) =>
  new URLSearchParams(entries.flatMap(([k, v]) => (v === undefined || v === '' ? [] : [[k, String(v)]]))).toString();

export const browserContentApi: ContentApi = {
  get(name, request = {}) {
    const search = queryString(Object.entries(request.query ?? {}) as [string, string | number | undefined][]);
    return read(pathFor(name, request.id) + (search ? `?${search}` : ''), request.signal);
  },
  search(params, signal) {
    return read(`${SEARCH_API_PATH}?${queryString(Object.entries(params))}`, signal);
  },
};
