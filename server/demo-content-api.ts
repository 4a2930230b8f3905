/**
 * The embedded content API on its own (`node dist/server/demo-content-api.js`), for a fleet that
 * needs one content API reachable over the network: the compose file and the Kubernetes
 * manifests run it as the demo content. HOST and PORT say where it listens (0.0.0.0:4000 by
 * default); with WEBHOOK_SECRET it can be edited and sends its publish events to WEBHOOK_URLS
 * (comma-separated site addresses ending in /admin/webhook). Stops on SIGTERM or SIGINT.
 */
import { z } from 'zod';
import { commaList } from './settings/setting-kinds.js';
import { startEmbeddedApi } from './embedded-api/embedded-api.js';
import { createLogger } from './observability/logger.js';

const env = z
  .object({
    HOST: z.string().min(1).default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65_535).default(4000),
    WEBHOOK_SECRET: z.string().min(16).optional(),
    WEBHOOK_URLS: commaList()
      .refine((urls) => urls.every((u) => URL.canParse(u)), 'each entry must be a URL')
      .optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .safeParse(process.env);
if (!env.success) {
  const issue = env.error.issues[0]!;
  process.stderr.write(`invalid configuration: ${issue.path.join('.')}: ${issue.message}\n`);
  process.exit(2);
}
const { HOST, PORT, WEBHOOK_SECRET, WEBHOOK_URLS, LOG_LEVEL } = env.data;
const log = createLogger(LOG_LEVEL);
const urls = WEBHOOK_URLS ?? [];
const api = await startEmbeddedApi({
  host: HOST,
  port: PORT,
  ...(WEBHOOK_SECRET ? { publishing: { secret: WEBHOOK_SECRET, webhooks: () => urls } } : {}),
});
log.info({ url: api.url, editing: Boolean(WEBHOOK_SECRET), webhooks: urls }, 'content API listening');
const stop = (signal: string) => {
  log.info({ signal }, 'content API stopping');
  void api.close().then(() => log.flush(() => process.exit(0)));
};
process.once('SIGTERM', () => stop('SIGTERM'));
process.once('SIGINT', () => stop('SIGINT'));
