// nginx (Debian's nginx-light) as a caching proxy beside the service: its own configuration in a
// temporary folder, on a free loopback port, stopped when the benchmark exits.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { rawGet } from './http.js';
import { freePort, startProcess, tempPath, type NodeProcess } from './processes.js';

const NGINX = '/usr/sbin/nginx';

function ensureNginx(): void {
  if (existsSync(NGINX)) return;
  console.log('installing nginx-light from Debian packages…');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'nginx-light'], { stdio: 'inherit' });
}

export interface Nginx extends NodeProcess {
  url: string;
}

/** The header nginx adds to say whether it answered from its cache (HIT) or asked the origin. */
export const NGINX_CACHE_HEADER = 'x-nginx-cache';

/**
 * nginx with `workers` worker processes and proxy_cache, sending each path prefix of `origins`
 * (longest first) to its origin. It caches every 200 for an hour whatever the origin's
 * Cache-Control, Expires and Vary say (the service's pages say max-age=0 and vary on the
 * User-Agent): the benchmark asks for the same bytes each time, so a hit is what it measures.
 * Requests are logged as in an ordinary setup: the combined format, written in 64 KB buffers.
 */
export async function startNginx(workers: number, origins: Record<string, string>): Promise<Nginx> {
  ensureNginx();
  const dir = tempPath(`nginx-${workers}`);
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const prefixes = Object.keys(origins).sort((a, b) => b.length - a.length);
  const upstreams = prefixes.map((prefix, i) => `upstream origin${i} { server ${new URL(origins[prefix]!).host}; keepalive 16; }`);
  const locations = prefixes.map(
    (prefix, i) => `location ${prefix} {
      proxy_pass http://origin${i};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_cache site;
      proxy_cache_valid 200 1h;
      proxy_cache_lock on;
      proxy_ignore_headers Cache-Control Expires Set-Cookie Vary;
      add_header ${NGINX_CACHE_HEADER} $upstream_cache_status always;
    }`,
  );
  // As root, the workers would otherwise run as nobody, who may not read this folder.
  const user = process.getuid?.() === 0 ? 'user root;' : '';
  writeFileSync(
    `${dir}/nginx.conf`,
    `${user}
worker_processes ${workers};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log ${dir}/access.log combined buffer=64k flush=1s;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  keepalive_requests 1000000;
  proxy_cache_path ${dir}/cache levels=1:2 keys_zone=site:10m max_size=256m;
  ${upstreams.join('\n  ')}
  server {
    listen 127.0.0.1:${port};
    ${locations.join('\n    ')}
  }
}
`,
  );
  const url = `http://127.0.0.1:${port}`;
  const proc = await startProcess(NGINX, ['-p', dir, '-c', `${dir}/nginx.conf`, '-e', `${dir}/error.log`, '-g', 'daemon off;'], {
    probe: () =>
      rawGet(`${url}/nginx-probe`).then(
        () => true,
        () => false,
      ),
  });
  return { ...proc, url };
}
