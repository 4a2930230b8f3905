/**
 * An expert's page: a Physician with the name, specialty (as the content API words it), the
 * hospital the expert works at (by name: the page reads no hospital list) and the portrait.
 */
import type { Physician } from 'schema-dts';
import type { Expert } from '../../../shared/contract/entities.js';
import { absolute, type PageContext } from '../page-context.js';

export function physicianNode(ctx: PageContext, expert: Expert): Physician {
  return {
    '@type': 'Physician',
    '@id': `${ctx.canonical}#physician`,
    name: expert.name,
    url: ctx.canonical,
    ...(expert.avatar ? { image: absolute(ctx, expert.avatar.src) } : {}),
    description: `${expert.title}，擅长${expert.specialty}`,
    medicalSpecialty: { '@type': 'MedicalSpecialty', name: expert.specialty },
    hospitalAffiliation: { '@type': 'Hospital', name: expert.hospital },
  };
}
