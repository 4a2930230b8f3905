/** The ContentApi in the browser: the service's own /api paths. */
import { pathFor } from '../shared/contract/api-templates.js';
import { ContentError, type ContentApi } from '../shared/content-api.js';

export const browserContentApi: ContentApi = {
  async get(name, request = {}) {
    const search = new URLSearchParams(Object.entries(request.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
    const url = pathFor(name, request.id) + (search ? `?${search}` : '');
    let res: Response;
    try {
      res = await fetch(url, { signal: request.signal, headers: { accept: 'application/json' } });
    } catch (error) {
      if (request.signal?.aborted) throw error;
      throw new ContentError(503, 'network_error', 'the network request failed');
    }
    const body = (await res.json().catch(() => null)) as { data?: unknown; error?: { code?: string; message?: string } } | null;
    if (!res.ok || !body || !('data' in body)) {
      throw new ContentError(res.ok ? 502 : res.status, body?.error?.code ?? 'bad_answer', body?.error?.message ?? `HTTP ${res.status}`);
    }
    return body.data as never;
  },
};
