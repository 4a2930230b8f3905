/**
 * Query parameters arrive as strings. Each is parsed strictly (no leading zeros, no signs,
 * no decimals) so that one value has one spelling and equal requests share one cache entry.
 */
import { z } from 'zod';
import { PAGE_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../constants.js';
import { MAX_ID, PLAIN_INT } from '../plain-int.js';

const DIGITS = PLAIN_INT;

/**
 * How each parameter reads in the OpenAPI document: an integer with its bounds or its values
 * (on the wire a plain decimal, which is how a client writes an integer), rather than the string
 * pattern it is parsed with here. Keyed by the parameter's schema.
 */
export const PARAM_DOCS = new WeakMap<
  z.ZodType,
  { type: 'integer'; minimum?: number; maximum?: number; enum?: number[]; description: string }
>();

/** A positive integer written plainly, within [min, max]. */
function intParam(min: number, max: number) {
  const description = `a whole number from ${min} to ${max}, written without leading zeros`;
  const schema = z
    .string()
    .regex(DIGITS, 'must be a positive integer without leading zeros')
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .describe(description);
  PARAM_DOCS.set(schema, { type: 'integer', minimum: min, maximum: max, description });
  return schema;
}

/** One of a fixed set of ids. */
export function idParam(allowed: readonly number[]) {
  const description = `one of ${allowed.join(', ')}`;
  const schema = z
    .string()
    .regex(DIGITS, 'must be a positive integer without leading zeros')
    .transform(Number)
    .pipe(z.number().refine((n) => allowed.includes(n), `must be one of ${allowed.join(', ')}`))
    .describe(description);
  PARAM_DOCS.set(schema, { type: 'integer', enum: [...allowed], description });
  return schema;
}

export const paging = {
  page: intParam(1, PAGE_MAX).default(1),
  pageSize: intParam(1, PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
};

/** A path id: a positive integer that fits a 32-bit signed column. */
export const pathId = intParam(1, MAX_ID);
