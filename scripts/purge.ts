/**
 * `npm run purge -- --tag news:212 --path /zjxz/index --all`: asks a running site to purge
 * (POST /admin/purge; docs/product/publishing.md). SITE_URL (default http://127.0.0.1:3000) and
 * PURGE_TOKEN come from the environment.
 */
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { tag: { type: 'string', multiple: true }, path: { type: 'string', multiple: true }, all: { type: 'boolean' } },
});
const site = process.env.SITE_URL ?? 'http://127.0.0.1:3000';
const token = process.env.PURGE_TOKEN;
const kinds = [values.tag && { tags: values.tag }, values.path && { paths: values.path }, values.all && { all: true }].filter(Boolean);
if (!token || kinds.length !== 1) {
  process.stderr.write('usage: PURGE_TOKEN=… [SITE_URL=…] npm run purge -- (--tag <tag>… | --path <path>… | --all)\n');
  process.exit(2);
}
const res = await fetch(`${site}/admin/purge`, {
  method: 'POST',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: JSON.stringify(kinds[0]),
});
process.stdout.write(`${res.status} ${await res.text()}\n`);
process.exit(res.ok ? 0 : 1);
