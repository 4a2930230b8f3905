/** The embedded content API's data set: everything it serves, before paging and filtering. */
import type { z } from 'zod';
import type * as e from '../../shared/contract/entities.js';

/** Each entity as the content API sends it: media as URLs or paths, before the service serves them. */
type Sent<T extends z.ZodType> = z.input<T>;
export type Banner = Sent<typeof e.banner>;
export type ContentDetail = Sent<typeof e.contentDetail>;
export type ContentSummary = Sent<typeof e.contentSummary>;
export type Expert = Sent<typeof e.expert>;
export type Hospital = Sent<typeof e.hospital>;
export type GroupIntroduction = Sent<typeof e.groupIntroduction>;
export type Treatment = Sent<typeof e.treatment>;
export type InternationalHospital = Sent<typeof e.internationalHospital>;
export type Award = Sent<typeof e.award>;
export type Promotion = Sent<typeof e.promotion>;
export type Category = Sent<typeof e.category>;
export type SubCategory = Sent<typeof e.subCategory>;
export type ContactUs = Sent<typeof e.contactUs>;

export interface DemoContent {
  groupIntroduction: GroupIntroduction;
  banners: Banner[];
  /** The 8 featured treatments (category 5). */
  treatments: Treatment[];
  /** Title and summary of the home page's expert section; it shows the first experts. */
  expertGroup: { title: string; summary: string; featuredExpertIds: number[] };
  experts: Expert[];
  domesticHospitals: Hospital[];
  internationalHospitals: InternationalHospital[];
  awards: Award[];
  promotions: Promotion[];
  /** Categories 5, 6, 7. */
  patientServiceCategories: Category[];
  /** Categories 15, 16, 17, 18. */
  researchCategories: Category[];
  /** Children of 17 (ids 22-24) and of 18 (ids 25-27). */
  researchSubcategories: SubCategory[];
  /** Categories 19, 20, 21. */
  newsCategories: Category[];
  /**
   * Every article, research item and news item, in one id space: knowledge (6), equipment (7),
   * research (15, 16, 22-27), news (19, 20, 21).
   */
  contentItems: ContentDetail[];
  contactUs: ContactUs;
}
