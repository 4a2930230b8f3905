/** `npm run vcl:routes`: writes the edge's page_query block (deploy/varnish/default.vcl) from the route table. */
import { readFileSync, writeFileSync } from 'node:fs';
import { withPageQuery } from './page-query-vcl.js';

const VCL_PATH = 'deploy/varnish/default.vcl';
writeFileSync(VCL_PATH, withPageQuery(readFileSync(VCL_PATH, 'utf8')));
