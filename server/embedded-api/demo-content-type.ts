/** The embedded content API's data set: everything it serves, before paging and filtering. */
import type {
  Award,
  Banner,
  Category,
  ContactUs,
  ContentDetail,
  Expert,
  GroupIntroduction,
  Hospital,
  InternationalHospital,
  Promotion,
  SubCategory,
  Treatment,
} from '../../shared/contract/entities.js';

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
