/**
 * Reads what the content API sent against the contract, item by item (docs/decisions/028): a CMS
 * sends what its editors typed, and one odd field must not take down every page that reads its
 * path. Walking the contract's schema:
 * - an object keeps the fields that fit; an optional field that does not fit is dropped; a
 *   required one that does not fit (an id, a title) makes the object unusable;
 * - a list keeps the items that are usable and drops the others;
 * - HTML is handed to `html` (which sanitises it);
 * - a media source (an image, a film, captions) is checked as the contract says, then handed to
 *   `media`, which makes it what the service answers, or finds it unusable (an origin not allowed);
 * - anything else is checked as the contract says, strictly: a link, an id or a number is either
 *   what the contract allows or it is not there.
 * Each drop is reported with its place, written as the contract's path with `[]` for any item
 * (`data.items[].cover`): a bounded name, fit for a metric label. The answer is refused only
 * when nothing usable remains: its payload cannot be read at all, or the payload is a list (or
 * a page of one, or the featured treatments' `data`) whose every item was dropped.
 */
import { z } from 'zod';
import { fileSource, html, imageSource } from '../../shared/contract/entities.js';

/** How a read reports and what it asks of others. */
export interface ReadHooks {
  /** Told of every field or item left out, by its place in the contract, with what was sent. */
  dropped(field: string, sent: unknown): void;
  /** A media source that fits the contract, as the answer carries it; undefined when it may not be used. */
  media(kind: 'image' | 'file', source: string): unknown;
  /** An HTML field as the answer carries it (sanitised). */
  html(fragment: string): string;
}

const UNUSABLE = Symbol('unusable');

/** The payload as far as it fits the schema, or undefined when nothing of it is usable. */
export function readTolerantly<T extends z.ZodType>(schema: T, input: unknown, hooks: ReadHooks, at = 'data'): unknown {
  const read = readNode(schema, input, hooks, at);
  if (read === UNUSABLE) return undefined;
  const field = listField(schema);
  if (field !== null) {
    const [sent, kept] =
      field === undefined ? [input, read] : [(input as Record<string, unknown>)[field], (read as Record<string, unknown>)[field]];
    if (Array.isArray(sent) && sent.length > 0 && Array.isArray(kept) && kept.length === 0) return undefined;
  }
  return read;
}

/** Where a payload's list is: itself (undefined), or its `items` (a page) or `data` (the featured treatments); null when it is no list. */
function listField(schema: z.ZodType): string | undefined | null {
  if (schema instanceof z.ZodArray) return undefined;
  if (!(schema instanceof z.ZodObject)) return null;
  const shape = schema.shape as Record<string, z.ZodType>;
  return ['items', 'data'].find((key) => shape[key] instanceof z.ZodArray) ?? null;
}

function readNode(schema: z.ZodType, input: unknown, hooks: ReadHooks, at: string): unknown {
  if (schema instanceof z.ZodOptional) return input === undefined ? undefined : readNode(schema.unwrap() as z.ZodType, input, hooks, at);
  if (schema instanceof z.ZodObject) {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return UNUSABLE;
    const out: Record<string, unknown> = {};
    const shape: Record<string, z.ZodType> = schema.shape;
    for (const [key, field] of Object.entries(shape)) {
      const sent = (input as Record<string, unknown>)[key];
      const value = readNode(field, sent, hooks, `${at}.${key}`);
      if (value !== UNUSABLE) {
        if (value !== undefined) out[key] = value;
      } else if (field instanceof z.ZodOptional) {
        hooks.dropped(`${at}.${key}`, sent);
      } else {
        // The object cannot do without it: whoever holds the object drops it.
        return UNUSABLE;
      }
    }
    return out;
  }
  if (schema instanceof z.ZodArray) {
    if (!Array.isArray(input)) return UNUSABLE;
    const items: unknown[] = [];
    for (const item of input) {
      const value = readNode(schema.element as z.ZodType, item, hooks, `${at}[]`);
      if (value === UNUSABLE) hooks.dropped(`${at}[]`, item);
      else items.push(value);
    }
    return items;
  }
  const checked = schema.safeParse(input);
  if (!checked.success) return UNUSABLE;
  if (schema === html) return hooks.html(checked.data as string);
  if (schema === imageSource || schema === fileSource) {
    return hooks.media(schema === imageSource ? 'image' : 'file', checked.data as string) ?? UNUSABLE;
  }
  return checked.data;
}
