/**
 * The contract's entities as a table of what each cannot do without and what may be missing
 * (docs/product/content-fields.md is checked against it).
 */
import { z } from 'zod';
import * as e from '../../shared/contract/entities.js';

const ENTITIES: [string, z.ZodObject][] = [
  ['groupIntroduction', e.groupIntroduction],
  ['banner', e.banner],
  ['treatment', e.treatment],
  ['expert', e.expert],
  ['contentDetail', e.contentDetail],
  ['hospital', e.hospital],
  ['internationalHospital', e.internationalHospital],
  ['award', e.award],
  ['promotion', e.promotion],
  ['contactUs', e.contactUs],
];

/** One Markdown row per entity: its name, its required fields, its optional fields. */
export function contentFieldRows(): string[] {
  return ENTITIES.map(([name, schema]) => {
    const shape: Record<string, z.ZodType> = schema.shape;
    const fields = Object.entries(shape);
    const required = fields.filter(([, f]) => !(f instanceof z.ZodOptional)).map(([k]) => `\`${k}\``);
    const optional = fields.filter(([, f]) => f instanceof z.ZodOptional).map(([k]) => `\`${k}\``);
    return `| ${name} | ${required.join(', ')} | ${optional.join(', ') || '-'} |`;
  });
}
