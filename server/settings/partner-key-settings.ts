/**
 * How partners' keys are written in API_KEYS and API_KEYS_FILE (docs/decisions/024), checked when
 * the configuration is read (config.ts); http/partner-keys.ts identifies a request by them.
 */

/** What a key looks like: long enough to be unguessable, in characters that survive any header. */
export const KEY_PATTERN = /^[A-Za-z0-9_-]{24,128}$/;
/** A partner's name: it appears in metrics labels and log lines. */
const PARTNER_NAME = /^[a-z0-9][a-z0-9-]{0,31}$/;

/** `name:key` entries from API_KEYS and the lines of API_KEYS_FILE, checked; throws naming what is wrong. */
export function parsePartnerKeys(entries: readonly string[], source: string): { name: string; key: string }[] {
  return entries.map((entry, i) => {
    const at = entry.indexOf(':');
    const name = entry.slice(0, at);
    const key = entry.slice(at + 1);
    if (at < 1 || !PARTNER_NAME.test(name))
      throw new Error(`${source}, entry ${i + 1}: the partner's name must match ${PARTNER_NAME.source}`);
    if (!KEY_PATTERN.test(key)) throw new Error(`${source}, entry ${i + 1} (${name}): the key must match ${KEY_PATTERN.source}`);
    return { name, key };
  });
}
