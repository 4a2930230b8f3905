/** `npm run docs:layers`: writes the README's table of the server's floors from layers.js. */
import { readFileSync, writeFileSync } from 'node:fs';
import { layersTable } from '../layers.js';

const readme = readFileSync('README.md', 'utf8');
const marked = /(<!-- layers -->\n)[\s\S]*?(\n<!-- \/layers -->)/;
if (!marked.test(readme)) throw new Error('README.md has no <!-- layers --> markers');
writeFileSync(
  'README.md',
  readme.replace(marked, (_all, open: string, close: string) => open + layersTable() + close),
);
