/** docs/product/content-fields.md says what the contract says each entity cannot do without. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contentFieldRows } from './support/content-fields.js';

describe('the content fields document', () => {
  it("lists each entity's required and optional fields as the contract has them", () => {
    const doc = readFileSync(new URL('../docs/product/content-fields.md', import.meta.url), 'utf8');
    for (const row of contentFieldRows()) expect(doc).toContain(row);
  });
});
