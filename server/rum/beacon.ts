/**
 * A beacon as the service takes it (shared/rum.ts): exactly these fields, each metric a finite
 * number within its bounds, nothing else. Anything that does not fit is refused whole, so a
 * broken or made-up report changes nothing.
 */
import { z } from 'zod';
import { LCP_ELEMENTS, VITAL_FACTS, VITALS, type Beacon, type Vital } from '../../shared/rum.js';

const metricValue = (name: Vital) => z.number().finite().min(0).max(VITAL_FACTS[name].max);

const schema = z
  .object({
    page: z.string().min(1).max(512).startsWith('/'),
    metrics: z
      .object(Object.fromEntries(VITALS.map((name) => [name, metricValue(name).optional()])) as Record<Vital, z.ZodOptional<z.ZodNumber>>)
      .strict()
      .refine((m) => Object.values(m).some((v) => v !== undefined), 'at least one metric'),
    lcpElement: z.enum(LCP_ELEMENTS).optional(),
  })
  .strict()
  .refine((b) => b.lcpElement === undefined || b.metrics.LCP !== undefined, { path: ['lcpElement'], message: 'only with LCP' });

/** The beacon in a body, or why it is refused. */
export function parseBeacon(body: Buffer): Beacon | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return { error: 'the body must be JSON' };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  return { error: `${issue.path.join('.') || 'body'}: ${issue.message}` };
}
