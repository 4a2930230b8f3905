/**
 * The group as a MedicalOrganization, with its hospitals (Hospital: address, telephone, departments,
 * opening hours and position where the content gives them, the page that shows it), and a
 * reference to it for what the group publishes.
 */
import type { DayOfWeek, Hospital as HospitalNode, MedicalOrganization, PostalAddress } from 'schema-dts';
import { hospitalHref, href } from '../../../shared/site/href.js';
import type { ContactUs, Hospital, InternationalHospital } from '../../../shared/contract/entities.js';
import { absolute, type PageContext } from '../page-context.js';

const DAYS: Record<NonNullable<Hospital['openingHours']>[number]['days'][number], DayOfWeek> = {
  Mo: 'Monday',
  Tu: 'Tuesday',
  We: 'Wednesday',
  Th: 'Thursday',
  Fr: 'Friday',
  Sa: 'Saturday',
  Su: 'Sunday',
};

/** The group's node id: one node, referred to from every page that names the group. */
export const organizationId = (ctx: Pick<PageContext, 'origin'>) => `${ctx.origin}/#organization`;

/** The group's name, as the header and footer data give it; undefined when the content API gave neither. */
export function groupName(ctx: PageContext): string | undefined {
  return ctx.layout.intro?.name ?? ctx.layout.contact?.groupName;
}

/** The group as a publisher: its id, name and logo (what an article needs of it). */
export function publisherOf(ctx: PageContext): MedicalOrganization | undefined {
  const name = groupName(ctx);
  if (!name) return undefined;
  const logo = ctx.layout.intro?.logo;
  return { '@type': 'MedicalOrganization', '@id': organizationId(ctx), name, ...(logo ? { logo: absolute(ctx, logo.src) } : {}) };
}

/** A hospital's node id: one per hospital, at the page that shows it, referred to by its doctors (hospitalAffiliation). */
export const hospitalId = (ctx: Pick<PageContext, 'origin'>, hospital: { id: number; abroad?: boolean | undefined }) =>
  `${absolute(ctx, hospitalHref(hospital))}#hospital-${hospital.id}`;

/** A hospital: its page, address, telephone, departments, and opening hours and position where the content gives them. */
export function hospitalNode(ctx: PageContext, hospital: Hospital | InternationalHospital, abroad: boolean): HospitalNode {
  const country = 'country' in hospital ? hospital.country : 'CN';
  const address: PostalAddress = {
    '@type': 'PostalAddress',
    streetAddress: hospital.address,
    addressLocality: hospital.city,
    addressCountry: country,
  };
  return {
    '@type': 'Hospital',
    '@id': hospitalId(ctx, { id: hospital.id, abroad }),
    name: hospital.name,
    url: absolute(ctx, hospitalHref({ id: hospital.id, abroad })),
    ...(hospital.image ? { image: absolute(ctx, hospital.image.src) } : {}),
    description: hospital.summary,
    telephone: hospital.phone,
    foundingDate: String(hospital.founded),
    address,
    ...(hospital.geo ? { geo: { '@type': 'GeoCoordinates', latitude: hospital.geo.latitude, longitude: hospital.geo.longitude } } : {}),
    ...(hospital.openingHours
      ? {
          openingHoursSpecification: hospital.openingHours.map((h) => ({
            '@type': 'OpeningHoursSpecification' as const,
            dayOfWeek: h.days.map((d) => DAYS[d]),
            opens: h.opens,
            closes: h.closes,
          })),
        }
      : {}),
    ...(hospital.mapUrl ? { hasMap: hospital.mapUrl } : {}),
    ...(hospital.departments.length > 0
      ? { department: hospital.departments.map((name) => ({ '@type': 'MedicalClinic' as const, name })) }
      : {}),
    parentOrganization: { '@id': organizationId(ctx) },
  };
}

/** The hospitals a page shows: the domestic ones (in China, by the path they come from) and the international ones. */
export interface ShownHospitals {
  domestic?: readonly Hospital[];
  international?: readonly InternationalHospital[];
}

/** The branches the contact page lists: name, address and telephone only. */
export function branchNodes(branches: ContactUs['branches']): MedicalOrganization[] {
  return branches.map((b) => ({
    '@type': 'MedicalOrganization',
    name: b.name,
    address: { '@type': 'PostalAddress', streetAddress: b.address },
    telephone: b.phone,
  }));
}

/** The group, with the facts the header and footer data give and the hospitals (or branches) the page shows. */
export function groupOrganization(
  ctx: PageContext,
  hospitals: ShownHospitals = {},
  branches: MedicalOrganization[] = [],
): MedicalOrganization | undefined {
  const publisher = publisherOf(ctx);
  if (!publisher || typeof publisher === 'string') return undefined;
  const { intro, contact } = ctx.layout;
  const parts = [
    ...branches,
    ...(hospitals.domestic ?? []).map((h) => hospitalNode(ctx, h, false)),
    ...(hospitals.international ?? []).map((h) => hospitalNode(ctx, h, true)),
  ];
  return {
    ...publisher,
    url: absolute(ctx, href('home')),
    ...(intro
      ? { slogan: intro.slogan, description: intro.summary, ...(intro.image ? { image: absolute(ctx, intro.image.src) } : {}) }
      : {}),
    ...(contact
      ? {
          telephone: contact.phone,
          email: contact.email,
          address: { '@type': 'PostalAddress', streetAddress: contact.address, postalCode: contact.postcode },
        }
      : {}),
    ...(parts.length > 0 ? { subOrganization: parts } : {}),
  };
}
