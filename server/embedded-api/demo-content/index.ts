/** The embedded content API's demo data set (fictional group, people and places). */
import type { DemoContent } from '../demo-content-type.js';
import { academicLectures, continuingEducation, patents, publications, researchProjects, residencyTraining } from './education.js';
import { expertGroup, experts } from './experts.js';
import {
  awards,
  banners,
  groupIntroduction,
  newsCategories,
  patientServiceCategories,
  promotions,
  researchCategories,
  researchSubcategories,
} from './group.js';
import { contactUs, domesticHospitals, internationalHospitals } from './hospitals.js';
import { equipment, knowledge } from './knowledge.js';
import { groupNews } from './news-group.js';
import { hospitalNews } from './news-hospital.js';
import { mediaReports } from './news-media.js';
import { academicExchange, researchInnovation } from './research.js';
import { treatments } from './treatments.js';

/**
 * The demo group publishes no e-mail address: a made-up domain may belong to someone, and the
 * site takes no messages. (hospitals.ts still names one; it is left out here.)
 */
const { email: _unpublished, ...contactWithoutEmail } = contactUs;

export const demoContent: DemoContent = {
  groupIntroduction,
  banners,
  treatments,
  expertGroup,
  experts,
  domesticHospitals,
  internationalHospitals,
  awards,
  promotions,
  patientServiceCategories,
  researchCategories,
  researchSubcategories,
  newsCategories,
  contentItems: [
    ...knowledge,
    ...equipment,
    ...researchInnovation,
    ...academicExchange,
    ...residencyTraining,
    ...continuingEducation,
    ...academicLectures,
    ...researchProjects,
    ...publications,
    ...patents,
    ...groupNews,
    ...hospitalNews,
    ...mediaReports,
  ],
  contactUs: contactWithoutEmail,
};
