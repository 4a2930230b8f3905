# Multi-stage build: the first stage installs everything and builds; the second carries only the
# production dependencies and the build, owned by root and run as the unprivileged `node` user,
# so that the process cannot change its own code. Nothing writes to disk at runtime: the image
# runs with a read-only root filesystem (deploy/compose.yaml, deploy/k8s).
#
# The base is pinned by its digest (docs/decisions/033): every build starts from the same bytes,
# and a new base is a change someone reviews (bump the tag's digest with the runtime's version).
# A machine that cannot reach Docker Hub builds with its own copy: --build-arg NODE_IMAGE=….
ARG NODE_IMAGE=node:26-bookworm-slim@sha256:367679cf9792759492a486e4aa4b421764d71a9546a6dae8aab81a99eb797b3e

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# The runtime package names the Node build npm installs for the scripts (docs/decisions/029), with
# its integrity in package-lock.json: the build runs on it, and so does the image (below).
COPY package.json package-lock.json ./
COPY scripts/node-runtime/package.json scripts/node-runtime/
RUN npm ci --no-audit --no-fund
# .dockerignore lets in only what the build reads.
COPY . .
# The lockfile's Node is set aside before `npm prune --omit=dev` drops it with the other
# development dependencies.
RUN npm run build \
  && cp "$(readlink -f node_modules/.bin/node)" /usr/local/bin/node-from-lockfile \
  && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE}
# Share cards set Chinese titles (server/seo/share-card.ts): fontconfig's configuration and a CJK font.
# jemalloc as the process's allocator (docs/decisions/060): glibc's keeps what libvips's and zlib's
# threads freed, and the resident set of the mixed load grew past the pod's limit; the library's
# path, whatever the architecture, is linked to one place for LD_PRELOAD. MALLOC_CONF: two arenas and
# freed pages given back within a second by jemalloc's own thread, not kept (decision 060's figures).
RUN apt-get update \
  && apt-get install -y --no-install-recommends fontconfig fonts-noto-cjk libjemalloc2 \
  && rm -rf /var/lib/apt/lists/* \
  && ln -s "$(dpkg -L libjemalloc2 | grep '/libjemalloc.so.2$')" /usr/local/lib/libjemalloc.so.2
# The image runs the lockfile's Node, not the base's own (which may be another release of the line).
COPY --from=build /usr/local/bin/node-from-lockfile /usr/local/bin/node
# METRICS_PORT: /metrics on an internal listener, never on the public port (docs/operations.md,
# "Observing and running one instance").
# No UPSTREAM_URL: the image serves a content API it is told of, and refuses to start without one
# (or CONTENT=demo, to show the invented demo content on purpose).
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 METRICS_PORT=9464 LD_PRELOAD=/usr/local/lib/libjemalloc.so.2 \
  MALLOC_CONF=background_thread:true,narenas:2,dirty_decay_ms:1000,muzzy_decay_ms:0
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# sharp carries its own fontconfig, whose cache format is newer than Debian's: one text drawn now
# writes that cache to /var/cache/fontconfig, where the read-only container finds it at start
# instead of scanning every font in each process.
RUN node -e "require('sharp')({ text: { text: '明瞳' } }).png().toBuffer().catch((e) => { console.error(e); process.exit(1); })"
USER node
EXPOSE 3000 9464
# Alive, not ready: /readyz is for a load balancer (a content API outage must not restart it).
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node is PID 1 and handles SIGTERM itself: in-flight requests finish, then it exits 0.
CMD ["node", "dist/server/index.js"]
