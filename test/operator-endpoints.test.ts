/**
 * /metrics and /status are never public by accident: on the public port they answer this machine
 * only (not a request a proxy forwarded) unless METRICS_TOKEN is set; with METRICS_PORT they move
 * to that internal listener and leave the public port; through the shipped edge they are not
 * served at all. /status draws the state, with the process's recent warnings and errors.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../server/settings/config.js';
import { startBuiltServer } from './support/built-server.js';
import { freePort } from './support/redis-server.js';
import { startService } from './support/start-service.js';

const TOKEN = 'operator-test-metrics-token';

describe('operator endpoints', () => {
  it('without METRICS_PORT or a token: this machine gets /metrics, a forwarded request gets 403', async () => {
    const svc = await startService();
    try {
      const local = await fetch(`${svc.url}/metrics`);
      expect(local.status).toBe(200);
      expect(await local.text()).toContain('# TYPE http_requests_total counter');
      const status = await fetch(`${svc.url}/status`);
      expect(status.status).toBe(200);
      expect(status.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await status.text()).toContain('<h2>At a glance</h2>');
      expect((await fetch(`${svc.url}/status`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(403);
      for (const header of [{ 'x-forwarded-for': '203.0.113.9' }, { forwarded: 'for=203.0.113.9' }] as Record<string, string>[]) {
        const forwarded = await fetch(`${svc.url}/metrics`, { headers: header });
        expect(forwarded.status).toBe(403);
        expect(((await forwarded.json()) as { error: { message: string } }).error.message).toMatch(/METRICS_PORT or METRICS_TOKEN/);
      }
    } finally {
      await svc.close();
    }
  });

  it('with METRICS_TOKEN: the token, from anywhere', async () => {
    const svc = await startService({ METRICS_TOKEN: TOKEN });
    try {
      const none = await fetch(`${svc.url}/metrics`);
      expect(none.status).toBe(401);
      expect((await fetch(`${svc.url}/status`)).status).toBe(401);
      expect((await fetch(`${svc.url}/status`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
      expect(none.headers.get('www-authenticate')).toBe('Bearer');
      const forwarded = await fetch(`${svc.url}/metrics`, {
        headers: { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': '203.0.113.9' },
      });
      expect(forwarded.status).toBe(200);
    } finally {
      await svc.close();
    }
  });

  it('with METRICS_PORT: on that listener only, and the public port has no /metrics', async () => {
    const port = await freePort();
    const svc = await startService({ METRICS_PORT: String(port) });
    try {
      const internal = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(internal.status).toBe(200);
      expect(internal.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await internal.text()).toContain('# TYPE proxy_cache_events_total counter');
      expect((await fetch(`http://127.0.0.1:${port}/status`)).status).toBe(200);
      // Behind a front door like the public port's: a request id and the security headers on every answer, a request line.
      for (const path of ['/', '/api/banner', '/nothing?x=1']) {
        const refused = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'x-request-id': `operator-${path.length}` } });
        expect(refused.status, path).toBe(404);
        expect(refused.headers.get('x-request-id'), path).toBe(`operator-${path.length}`);
        expect(refused.headers.get('x-content-type-options'), path).toBe('nosniff');
      }
      await expect
        .poll(() => svc.logs, { timeout: 5_000, message: 'the request line' })
        .toContainEqual(expect.objectContaining({ msg: 'request', reqId: 'operator-1', status: 404 }));
      const publicPort = await fetch(`${svc.url}/metrics`, { headers: { accept: 'application/json' } });
      expect(publicPort.status).toBe(404);
      expect(await publicPort.text()).not.toContain('# TYPE');
    } finally {
      await svc.close();
    }
  });

  it('/status of the built service lists its recent warnings and errors', async () => {
    // A content API that is not there: every miss is a warning.
    const server = await startBuiltServer({ UPSTREAM_URL: 'http://127.0.0.1:9', NODE_ENV: 'production', WORKERS: '1' });
    try {
      expect((await fetch(`${server.url}/api/banner`)).status).toBe(503);
      const page = await (await fetch(`${server.url}/status`)).text();
      expect(page).toContain('upstream call failed');
      expect(page).not.toContain('<script');
    } finally {
      server.kill();
    }
  });

  it('METRICS_PORT must differ from PORT', () => {
    expect(() => loadConfig({ PORT: '3000', METRICS_PORT: '3000' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: '3000', METRICS_PORT: '3000' })).toThrow(/METRICS_PORT: must differ from PORT/);
  });
});
