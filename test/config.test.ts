/** The configuration: validated at start, and documented from its own schema. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, configTable, loadConfig } from '../server/settings/config.js';

describe('configuration', () => {
  it('takes the defaults when nothing is set, and empty strings as unset', () => {
    const config = loadConfig({ PORT: '', UPSTREAM_URL: '' });
    expect(config.PORT).toBe(3000);
    expect(config.HOST).toBe('127.0.0.1');
    expect(config.UPSTREAM_URL).toBeUndefined();
    expect(config.CACHE_STALE_IF_ERROR_S).toBe(86_400);
  });

  it('refuses bad values with a message naming each variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', UPSTREAM_TIMEOUT_MS: '-5', METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', UPSTREAM_TIMEOUT_MS: '-5', METRICS_TOKEN: 'short' });
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ['PORT', 'UPSTREAM_TIMEOUT_MS', 'METRICS_TOKEN']) expect(message).toContain(name);
    }
  });

  it('drops a trailing slash from PUBLIC_ORIGIN, so that links join it with a path', () => {
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://eye.example/' }).PUBLIC_ORIGIN).toBe('https://eye.example');
  });

  it('docs/configuration.md has the table made from the schema', () => {
    const readme = readFileSync('docs/configuration.md', 'utf8');
    const table = /<!-- configuration table -->\n([\s\S]*?)\n<!-- \/configuration table -->/.exec(readme)?.[1];
    expect(table, 'docs/configuration.md has the markers around the configuration table').toBeDefined();
    expect(table, 'run `npm run docs:config`').toBe(configTable());
  });
});
