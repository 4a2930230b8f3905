/**
 * An expert as a Physician: the name, specialty (as the content API words it), portrait, the
 * expert's own page, and the hospital the expert works at (hospitalAffiliation: the hospital's
 * node, by its id, where the site knows the hospital by that name; else its name only). On the
 * expert's page with the profile's description; on a hospital's page, each of its doctors.
 */
import type { Physician } from 'schema-dts';
import type { ExpertSummary } from '../../../shared/contract/entities.js';
import { expertHref, hospitalHref } from '../../../shared/site/href.js';
import { absolute, type PageContext } from '../page-context.js';
import { hospitalId } from './organization.js';

export function physicianNode(ctx: PageContext, expert: ExpertSummary): Physician {
  const page = absolute(ctx, expertHref(expert.id));
  const hospital = ctx.layout.hospitals.find((h) => h.name === expert.hospital);
  return {
    '@type': 'Physician',
    '@id': `${page}#physician`,
    name: expert.name,
    url: page,
    ...(expert.avatar ? { image: absolute(ctx, expert.avatar.src) } : {}),
    description: `${expert.title}，擅长${expert.specialty}`,
    medicalSpecialty: { '@type': 'MedicalSpecialty', name: expert.specialty },
    hospitalAffiliation: {
      '@type': 'Hospital',
      ...(hospital ? { '@id': hospitalId(ctx, hospital), url: absolute(ctx, hospitalHref(hospital)) } : {}),
      name: expert.hospital,
    },
  };
}
