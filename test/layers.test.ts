/**
 * The server's floors (layers.js, docs/decisions/040): the lint rule refuses an import that runs
 * back up, type-only or not, and lets one run down, stay on its floor or read the settings;
 * every server file stands on a floor; README's table is the one made from layers.js.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { matchesGlob } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { LAYERS, layerRules, layersTable, serverReadsTheApp } from '../layers.js';

const eslint = new ESLint({ overrideConfigFile: true, overrideConfig: [layerRules] });

/** What the rule says of `code`, were it the file at `path`. */
async function refusals(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path });
  return result!.messages.map((m) => m.message);
}

describe("the server's floors", () => {
  it('an import that runs back up is refused, type-only or not', async () => {
    expect(
      await refusals(
        'server/observability/probe.ts',
        "import type { PageCache } from '../render/page-cache.js';\nexport type P = PageCache;\n",
      ),
    ).toEqual([expect.stringMatching(/category "render" are not allowed in file of category "observability"/)]);
    expect(await refusals('server/fleet/probe.ts', "import { Purger } from '../admin/purge.js';\nexport const p = Purger;\n")).toEqual([
      expect.stringMatching(/category "admin" are not allowed in file of category "fleet"/),
    ]);
    // The settings stand on the ground: they read nothing of the parts they configure.
    expect(
      await refusals(
        'server/settings/probe-settings.ts',
        "import { Transformer } from '../media/transform.js';\nexport const t = Transformer;\n",
      ),
    ).toEqual([expect.stringMatching(/category "media" are not allowed in file of category "settings"/)]);
  });

  it('an import that runs down, stays on its floor or reads the settings passes', async () => {
    const code = [
      "import { ContentCache } from '../proxy/content-cache.js';",
      "import { PageCache } from './page-cache.js';",
      "import { MEDIA_SETTINGS } from '../settings/media-settings.js';",
      "import { loadConfig } from '../settings/config.js';",
      'export const all = [ContentCache, PageCache, MEDIA_SETTINGS, loadConfig];',
    ].join('\n');
    expect(await refusals('server/render/probe.ts', code)).toEqual([]);
  });

  it('every server file stands on a floor', () => {
    const files = readdirSync('server', { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => `server/${f}`);
    const placed = (file: string) => LAYERS.some((layer) => layer.files.some((pattern) => matchesGlob(file, pattern)));
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((f) => !placed(f))).toEqual([]);
  });

  it('the server reads the app only through its SSR entry; what both sides use is in shared/', async () => {
    const lint = new ESLint({
      overrideConfigFile: true,
      overrideConfig: [{ ...serverReadsTheApp, languageOptions: layerRules.languageOptions }],
    });
    const said = async (path: string, code: string) => (await lint.lintText(code, { filePath: path }))[0]!.messages.map((m) => m.message);
    expect(
      await said('server/render/probe.ts', "import { ROUTES } from '../../client/route-table.js';\nexport const r = ROUTES;\n"),
    ).toEqual([expect.stringMatching(/only through client\/entry-server/)]);
    expect(
      await said(
        'server/render/probe.ts',
        "import type { AppRenderer } from '../../client/entry-server.js';\nexport type A = AppRenderer;\n",
      ),
    ).toEqual([]);
    expect(
      await said('server/render/probe.ts', "import { ROUTES } from '../../shared/site/route-table.js';\nexport const r = ROUTES;\n"),
    ).toEqual([]);
    const server = readdirSync('server', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const readsTheApp = server.filter((f) => /from '(?:\.\.\/)+client\/(?!entry-server\.js')/.test(readFileSync(`server/${f}`, 'utf8')));
    expect(readsTheApp).toEqual([]);
  });

  it("README's table of the floors is the one made from layers.js", () => {
    const readme = readFileSync('README.md', 'utf8');
    const table = /<!-- layers -->\n([\s\S]*?)\n<!-- \/layers -->/.exec(readme)?.[1];
    expect(table, 'README.md has the markers around the table of floors').toBeDefined();
    expect(table, 'run `npm run docs:layers`').toBe(layersTable());
  });
});
