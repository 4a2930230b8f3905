/** `npm run docs:config`: writes the README's configuration table from the schema (server/settings/config.ts). */
import { readFileSync, writeFileSync } from 'node:fs';
import { configTable } from '../server/settings/config.js';

const readme = readFileSync('README.md', 'utf8');
const marked = /(<!-- configuration table -->\n)[\s\S]*?(\n<!-- \/configuration table -->)/;
if (!marked.test(readme)) throw new Error('README.md has no <!-- configuration table --> markers');
writeFileSync(
  'README.md',
  readme.replace(marked, (_all, open: string, close: string) => open + configTable() + close),
);
