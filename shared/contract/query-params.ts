/**
 * Query parameters arrive as strings. Each is parsed strictly (no leading zeros, no signs,
 * no decimals) so that one value has one spelling and equal requests share one cache entry.
 */
import { z } from 'zod';
import { PAGE_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../constants.js';
import { MAX_ID, PLAIN_INT } from '../plain-int.js';

const DIGITS = PLAIN_INT;

/** A positive integer written plainly, within [min, max]. */
function intParam(min: number, max: number) {
  return z
    .string()
    .regex(DIGITS, 'must be a positive integer without leading zeros')
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .describe(`a whole number from ${min} to ${max}, written without leading zeros`);
}

/** One of a fixed set of ids. */
export function idParam(allowed: readonly number[]) {
  return z
    .string()
    .regex(DIGITS, 'must be a positive integer without leading zeros')
    .transform(Number)
    .pipe(z.number().refine((n) => allowed.includes(n), `must be one of ${allowed.join(', ')}`))
    .describe(`one of ${allowed.join(', ')}`);
}

export const paging = {
  page: intParam(1, PAGE_MAX).default(1),
  pageSize: intParam(1, PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
};

/** A path id: a positive integer that fits a 32-bit signed column. */
export const pathId = intParam(1, MAX_ID);
