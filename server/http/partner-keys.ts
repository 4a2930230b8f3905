/**
 * Partners' API keys (docs/decisions/024): `X-API-Key` names a partner configured in `API_KEYS`
 * (or `API_KEYS_FILE`), which then has a budget of its own instead of its address's. A key that
 * is sent but unknown or malformed is refused (401), never taken as anonymous: a partner with a
 * mistyped key would otherwise share the anonymous budget without knowing. Keys are compared in
 * constant time, against every configured key, and never logged or kept beyond their digests.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ContentError } from '../../shared/content-api.js';
import { KEY_PATTERN } from '../settings/partner-key-settings.js';
import { problem } from './problem.js';

export interface Partner {
  readonly name: string;
}

const digest = (key: string) => createHash('sha256').update(key).digest();

export class PartnerKeys {
  readonly #keys: { digest: Buffer; partner: Partner }[];

  constructor(entries: readonly { name: string; key: string }[]) {
    this.#keys = entries.map(({ name, key }) => ({ digest: digest(key), partner: { name } }));
  }

  get names(): string[] {
    return this.#keys.map((k) => k.partner.name);
  }

  /** The partner a request's key names; undefined when it sends none; the 401 to answer with otherwise. */
  identify(req: IncomingMessage): Partner | ContentError | undefined {
    const sent = req.headers['x-api-key'];
    if (sent === undefined) return undefined;
    if (typeof sent !== 'string' || !KEY_PATTERN.test(sent)) {
      return problem('unauthorized', 'the X-API-Key header is malformed: a key is 24 to 128 letters, digits, - or _');
    }
    const presented = digest(sent);
    let found: Partner | undefined;
    // Every key is compared, so that the time taken says nothing about which one came close.
    for (const { digest: known, partner } of this.#keys) {
      if (timingSafeEqual(presented, known)) found = partner;
    }
    return found ?? problem('unauthorized', 'the X-API-Key is not a key of this service; without a key the API is public');
  }
}
