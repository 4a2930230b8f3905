/**
 * The live OpenAPI document passes Redocly's recommended rules (redocly.yaml) with no error and
 * no warning: a warning is a generator or a reader of the document left to guess (a required
 * property the schema does not define). The CLI (@redocly/cli) runs as its own process on a copy
 * of the document the service serves, with its usage data and update notice off.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from './support/start-service.js';

const run = promisify(execFile);
const REDOCLY = fileURLToPath(import.meta.resolve('@redocly/cli/bin/cli.js'));

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: 'error' | 'warn'; message: string; location: { pointer: string }[] }[];
}

describe('redocly lint', () => {
  let svc: RunningService;
  let dir: string;
  beforeAll(async () => {
    // As served in production: at its public address.
    svc = await startService({ PUBLIC_ORIGIN: 'https://eye.example' });
    dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await svc?.close();
  });

  it('finds no error and no warning in the live document with the recommended rules', async () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, await (await fetch(`${svc.url}/api/openapi.json`)).text());
    const { stdout } = await run(process.execPath, [REDOCLY, 'lint', file, '--format=json'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: Error & { stdout?: string; stderr?: string }) => {
      // The CLI exits 1 when it finds errors; its report is still on stdout.
      if (!error.stdout) throw new Error(`redocly did not run: ${error.stderr || error.message}`);
      return { stdout: error.stdout };
    });
    const report = JSON.parse(stdout) as LintReport;
    const listed = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(listed).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
});
