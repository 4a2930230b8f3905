/** `npm run api:types`: regenerates the partner client's types from the OpenAPI document (scripts/api-types.ts). */
import { writeFileSync } from 'node:fs';
import { buildOpenApi } from '../server/api-docs/openapi.js';
import { API_TYPES_FILE, apiTypes } from './api-types.js';

// The types do not depend on the server's address.
writeFileSync(API_TYPES_FILE, await apiTypes(buildOpenApi({ serverUrl: 'http://localhost:3000' })));
process.stdout.write(`wrote ${API_TYPES_FILE}\n`);
