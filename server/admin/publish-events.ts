/**
 * The content API's publish events (docs/product/publishing.md): what was published, changed or
 * removed, and the tags that names. A content item (an article, research item or news item:
 * one id space) is in its own detail answer and in the lists that may show it; so is an expert;
 * anything else is in the answers of its path.
 */
import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { API_TEMPLATES } from '../../shared/contract/api-templates.js';
import { expertTag, newsTag } from '../proxy/cache-tags.js';

const ITEM_TYPES = {
  news: {
    item: newsTag,
    paths: [API_TEMPLATES.news, API_TEMPLATES.newsMedia, API_TEMPLATES.research, API_TEMPLATES.knowledgeArticles],
  },
  expert: { item: expertTag, paths: [API_TEMPLATES.experts, API_TEMPLATES.expertGroup] },
  banner: { paths: [API_TEMPLATES.banner] },
  treatment: { paths: [API_TEMPLATES.specialtyTreatment] },
  hospital: { paths: [API_TEMPLATES.domesticHospitals, API_TEMPLATES.internationalHospitals] },
  award: { paths: [API_TEMPLATES.awardHonors] },
  promotion: { paths: [API_TEMPLATES.promotions] },
  group: { paths: [API_TEMPLATES.groupIntroduction] },
  contact: { paths: [API_TEMPLATES.contactUs] },
  category: {
    paths: [
      API_TEMPLATES.patientServiceCategories,
      API_TEMPLATES.researchCategories,
      API_TEMPLATES.newsCategories,
      API_TEMPLATES.educationSubcategories,
      API_TEMPLATES.researchSubcategories,
    ],
  },
} satisfies Record<string, { item?: (id: number) => string; paths: readonly string[] }>;

type ItemType = keyof typeof ITEM_TYPES;

/** A publish event's timestamp may be this old (or this far ahead) at most. */
export const WEBHOOK_WINDOW_S = 300;
export const SIGNATURE_HEADER = 'x-webhook-signature';
export const TIMESTAMP_HEADER = 'x-webhook-timestamp';

/** The signature of a publish event: HMAC-SHA256 of `<timestamp>.<raw body>`, as `sha256=<hex>`. */
export function signWebhook(secret: string, timestamp: number | string, body: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`;
}

export const publishEvent = z
  .object({
    /** Unique per event: the same id again is a replay. */
    id: z.string().min(1).max(128),
    event: z.enum(['publish', 'update', 'delete']),
    items: z
      .array(
        z
          .object({
            type: z.enum(Object.keys(ITEM_TYPES) as [ItemType, ...ItemType[]]),
            id: z.number().int().positive().max(2_147_483_647).optional(),
          })
          .strict(),
      )
      .min(1)
      .max(500),
  })
  .strict();

export type PublishEvent = z.infer<typeof publishEvent>;

/** The tags a publish event names. */
export function tagsOfEvent(event: PublishEvent): string[] {
  const tags = new Set<string>();
  for (const { type, id } of event.items) {
    const spec: { item?: (id: number) => string; paths: readonly string[] } = ITEM_TYPES[type];
    if (spec.item && id !== undefined) tags.add(spec.item(id));
    for (const path of spec.paths) tags.add(path);
  }
  return [...tags];
}
