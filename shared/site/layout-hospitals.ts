/**
 * What every page knows of the hospitals (the layout's data, so kept small): where each one's page
 * is, its city and its phone (a doctor's booking line), and for one abroad what the header's
 * 国际医院 panel shows of it (its picture and the first sentence of its summary).
 */
import type { Hospital, InternationalHospital, MediaImage } from '../contract/entities.js';

interface LayoutHospital {
  id: number;
  name: string;
  city: string;
  phone: string;
  abroad?: true;
  image?: MediaImage | undefined;
  summary?: string;
}

/** A summary's first sentence. */
const firstSentence = (text: string) => /^[^。！？!?]*[。！？!?]?/.exec(text)![0];

export function layoutHospitals(domestic: readonly Hospital[], abroad: readonly InternationalHospital[]): LayoutHospital[] {
  return [
    ...domestic.map(({ id, name, city, phone }) => ({ id, name, city, phone })),
    ...abroad.map(({ id, name, city, phone, image, summary }) => ({
      id,
      name,
      city,
      phone,
      abroad: true as const,
      image,
      summary: firstSentence(summary),
    })),
  ];
}
