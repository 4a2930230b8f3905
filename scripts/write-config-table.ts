/** `npm run docs:config`: writes docs/configuration.md's table from the schema (server/settings/config.ts). */
import { readFileSync, writeFileSync } from 'node:fs';
import { configTable } from '../server/settings/config.js';

const DOC = 'docs/configuration.md';
const doc = readFileSync(DOC, 'utf8');
const marked = /(<!-- configuration table -->\n)[\s\S]*?(\n<!-- \/configuration table -->)/;
if (!marked.test(doc)) throw new Error(`${DOC} has no <!-- configuration table --> markers`);
writeFileSync(
  DOC,
  doc.replace(marked, (_all, open: string, close: string) => open + configTable() + close),
);
