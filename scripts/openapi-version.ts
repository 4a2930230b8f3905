/**
 * `npm run openapi:version -- <major|minor|patch>`: raises the OpenAPI document's version and
 * records its contract's fingerprint beside it (server/api-docs/openapi-version.ts). Run it when
 * test/openapi-version.test.ts says the contract changed; with no change it writes nothing.
 */
import { writeFileSync } from 'node:fs';
import { buildOpenApi } from '../server/api-docs/openapi.js';
import { OPENAPI_VERSION, VERSION_FILE, openApiFingerprint } from '../server/api-docs/openapi-version.js';

const LEVELS = ['major', 'minor', 'patch'] as const;
const level = process.argv[2];
if (!LEVELS.includes(level as (typeof LEVELS)[number]) || process.argv.length > 3) {
  process.stderr.write('usage: npm run openapi:version -- <major|minor|patch>\n');
  process.exit(2);
}

// The fingerprint leaves the server out, so any address will do.
const fingerprint = openApiFingerprint(buildOpenApi({ serverUrl: 'http://localhost:3000' }));
if (fingerprint === OPENAPI_VERSION.fingerprint) {
  process.stdout.write(`the contract has not changed since ${OPENAPI_VERSION.version}: nothing to do\n`);
  process.exit(0);
}
const [major = 0, minor = 0, patch = 0] = OPENAPI_VERSION.version.split('.').map(Number);
const version = level === 'major' ? `${major + 1}.0.0` : level === 'minor' ? `${major}.${minor + 1}.0` : `${major}.${minor}.${patch + 1}`;
writeFileSync(VERSION_FILE, `${JSON.stringify({ version, fingerprint }, null, 2)}\n`);
process.stdout.write(`${VERSION_FILE}: ${OPENAPI_VERSION.version} → ${version}, fingerprint ${fingerprint}\n`);
