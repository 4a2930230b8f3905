/**
 * `npm run edit -- news 212 --title "…"`: edits an item in the embedded content API, which then
 * sends its signed publish event to the site, as a CMS does (docs/product/publishing.md). The
 * site must run with WEBHOOK_SECRET and EMBEDDED_API_PORT set; this script reads the same two
 * (or CONTENT_API_URL for a content API elsewhere).
 */
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { title: { type: 'string' }, summary: { type: 'string' }, name: { type: 'string' }, specialty: { type: 'string' } },
});
const [type, id] = positionals;
const secret = process.env.WEBHOOK_SECRET;
const contentApi =
  process.env.CONTENT_API_URL ?? (process.env.EMBEDDED_API_PORT ? `http://127.0.0.1:${process.env.EMBEDDED_API_PORT}` : undefined);
const fields = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
if (!secret || !contentApi || !type || !id || Object.keys(fields).length === 0) {
  process.stderr.write(
    'usage: WEBHOOK_SECRET=… EMBEDDED_API_PORT=… npm run edit -- (news <id> [--title …] [--summary …] | expert <id> [--name …] [--title …] [--specialty …])\n',
  );
  process.exit(2);
}
const res = await fetch(`${contentApi}/admin/items/${type}/${id}`, {
  method: 'POST',
  headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
  body: JSON.stringify(fields),
});
process.stdout.write(`${res.status} ${JSON.stringify(await res.json(), null, 2)}\n`);
process.exit(res.ok ? 0 : 1);
