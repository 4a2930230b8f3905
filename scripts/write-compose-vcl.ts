/** `npx tsx scripts/write-compose-vcl.ts`: writes the compose edge's VCL (deploy/compose/varnish.vcl). */
import { readFileSync, writeFileSync } from 'node:fs';
import { COMPOSE_FILE, COMPOSE_VCL, SHIPPED_VCL, composeVcl } from './compose-vcl.js';

writeFileSync(COMPOSE_VCL, composeVcl(readFileSync(SHIPPED_VCL, 'utf8'), readFileSync(COMPOSE_FILE, 'utf8')));
