/**
 * What the proxy may ever send upstream, written independently of server/proxy/api-request.ts:
 * one of the 21 path templates, a plain decimal id where `{id}` is, and a query made only of
 * that path's own parameters, each once, with plain decimal values. Nothing encoded, no `..`.
 */
import { API_PATHS } from '../../shared/contract/api-paths.js';
import { MAX_ID } from '../../shared/plain-int.js';

const PLAIN = /^[1-9][0-9]*$/;

export function isContractUrl(url: string): boolean {
  if (url.length > 2_048 || /[^A-Za-z0-9/?&=_-]/.test(url) || url.includes('..')) return false;
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const search = q === -1 ? undefined : url.slice(q + 1);
  if (search !== undefined && (search === '' || search.includes('?'))) return false;
  for (const spec of Object.values(API_PATHS)) {
    const [prefix, suffix] = spec.template.split('{id}') as [string, string | undefined];
    let matches: boolean;
    if (suffix === undefined) {
      matches = path === prefix;
    } else {
      const id = path.startsWith(prefix) && path.endsWith(suffix) ? path.slice(prefix.length, path.length - suffix.length) : '';
      matches = PLAIN.test(id) && Number(id) <= MAX_ID;
    }
    if (!matches) continue;
    if (search === undefined) return true;
    const allowed = Object.keys(spec.query.shape);
    const seen = new Set<string>();
    for (const pair of search.split('&')) {
      const m = /^([A-Za-z]+)=([^&]*)$/.exec(pair);
      if (!m || !allowed.includes(m[1]!) || seen.has(m[1]!) || !PLAIN.test(m[2]!)) return false;
      seen.add(m[1]!);
    }
    return true;
  }
  return false;
}

/** The upstream URLs received that are not contract URLs (empty when all is well). */
export function outsideContract(calls: Map<string, number>): string[] {
  return [...calls.keys()].filter((url) => !isContractUrl(url));
}
