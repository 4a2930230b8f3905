/**
 * The OpenAPI document's version, kept with a fingerprint of the contract it names
 * (openapi-version.json). The fingerprint covers the document but for what does not change
 * the contract: its version, its servers (and the address where it names them) and its
 * examples (drawn from content). When the contract changes the fingerprint does, and the
 * version must be raised with it: test/openapi-version.test.ts fails until it is, saying how
 * (`npm run openapi:version -- <major|minor|patch>` writes both).
 */
import { createHash } from 'node:crypto';
import record from './openapi-version.json' with { type: 'json' };

export interface VersionRecord {
  version: string;
  fingerprint: string;
}

export const OPENAPI_VERSION: VersionRecord = record;

export const VERSION_FILE = 'server/api-docs/openapi-version.json';

/** JSON with its keys sorted, and without examples; the server's address written `{server}`. */
function canonical(value: unknown, server: string): string {
  if (typeof value === 'string') return JSON.stringify(server ? value.replaceAll(server, '{server}') : value);
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, server)).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([key]) => key !== 'example' && key !== 'examples')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v, server)}`).join(',')}}`;
}

interface Fingerprinted {
  info: { version: string };
  servers?: { url: string }[];
}

/** The contract's fingerprint: the document but for its version, servers and examples. */
export function openApiFingerprint(doc: Fingerprinted): string {
  const { servers, info, ...rest } = doc;
  const { version: _version, ...infoRest } = info;
  const text = canonical({ ...rest, info: infoRest }, servers?.[0]?.url ?? '');
  return `sha256-${createHash('sha256').update(text).digest('base64url')}`;
}

const semver = (v: string) => v.split('.').map(Number);
function isAbove(a: string, b: string): boolean {
  const [x, y] = [semver(a), semver(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  return false;
}

/**
 * Whether a document's version matches its contract: undefined when it does, else what to do.
 * `recorded` is the version and fingerprint on record.
 */
export function versionProblem(doc: Fingerprinted, recorded: VersionRecord): string | undefined {
  const fingerprint = openApiFingerprint(doc);
  if (fingerprint === recorded.fingerprint) {
    return doc.info.version === recorded.version
      ? undefined
      : `the document says version ${doc.info.version} but ${VERSION_FILE} records ${recorded.version} for this contract`;
  }
  const how =
    `raise the version (minor for an addition, major for a change that can break a client, patch for wording) ` +
    `and record the new fingerprint: \`npm run openapi:version -- minor\` writes both to ${VERSION_FILE}`;
  if (!isAbove(doc.info.version, recorded.version)) {
    return `the API contract changed (its fingerprint is now ${fingerprint}, ${VERSION_FILE} records ${recorded.fingerprint}) but its version is still ${doc.info.version}: ${how}`;
  }
  return `the version was raised to ${doc.info.version}, but ${VERSION_FILE} still records the fingerprint of ${recorded.version}: record ${fingerprint} beside it (\`npm run openapi:version -- minor\` writes both)`;
}
