/**
 * The shapes of the content API's payloads: defined once, used by the embedded content API,
 * the proxy's validation and the pages. Every field named `content` holds HTML; the service
 * sanitises those fields at its boundary before anything is cached or shown.
 */
import { z } from 'zod';

const id = z.number().int().positive();
const text = z.string().min(1).max(2_000);
const longText = z.string().min(1).max(20_000);
/** A local image served by this site under /media: never a remote one. */
const image = z.string().regex(/^\/media\/[a-z0-9/_-]+\.(svg|webp|png|jpg)$/);
/** A local video file served by this site under /media, as images are. */
const videoFile = z.string().regex(/^\/media\/[a-z0-9/_-]+\.(mp4|webm)$/);
/** Local captions (WebVTT) served by this site under /media. */
const captionsFile = z.string().regex(/^\/media\/[a-z0-9/_-]+\.vtt$/);
/** A link inside this site: a path, never a scheme or another host. */
const internalLink = z.string().regex(/^\/(?!\/)[^\s]*$/);
/** A link to another site (a map, a public register): https only, never a script or a data: URL. */
const externalLink = z.url({ protocol: /^https$/ }).max(2_000);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const year = z.number().int().min(1900).max(2100);
/** A time of day, 24-hour `HH:MM`. */
const timeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);
/** Upstream HTML; sanitised by the service before it is cached or rendered. */
const html = z.string().max(200_000);

export const category = z.object({ id, name: text });
export const subCategory = category.extend({ parentId: id });

export const groupIntroduction = z.object({
  name: text,
  slogan: text,
  /** Plain-text introduction for the header panel. */
  summary: text,
  content: html,
  logo: image,
  image,
  stats: z.array(z.object({ value: text, label: text })),
  culture: z.array(z.object({ title: text, text: longText, icon: image })),
  history: z.array(z.object({ year, title: text, text: longText })),
});

export const banner = z.object({ id, title: text, subtitle: text, image, link: internalLink });

export const treatment = z.object({
  id,
  title: text,
  icon: image,
  image,
  summary: text,
  content: html,
});
/** The featured-treatment list sits under a `data.data` wrapper. */
export const specialtyTreatments = z.object({ data: z.array(treatment) });

export const expertSummary = z.object({
  id,
  name: text,
  /** Professional title, e.g. 主任医师. */
  title: text,
  hospital: text,
  specialty: text,
  avatar: image,
});
export const expert = expertSummary.extend({
  education: text,
  content: html,
  achievements: z.array(text),
  schedule: z.array(text),
});
export const expertGroup = z.object({ title: text, summary: text, experts: z.array(expertSummary) });

/** Articles, research items and news share one id space and one detail path (/api/news/{id}). */
export const contentSummary = z.object({
  id,
  categoryId: id,
  title: text,
  summary: text,
  cover: image,
  date: isoDate,
});
export const contentDetail = contentSummary.extend({
  content: html,
  source: text,
  author: text,
  views: z.number().int().nonnegative(),
  /** The expert who reviewed the text (a health article's 审核专家), by id (/api/experts/{id}); optional. */
  reviewerId: id.optional(),
});
export const newsMedia = z.object({
  categories: z.array(category.extend({ items: z.array(contentSummary) })),
});

export const hospital = z.object({
  id,
  name: text,
  city: text,
  address: text,
  phone: text,
  image,
  summary: text,
  founded: year,
  departments: z.array(text),
  /** The hospital on a map (opens a map app where there is one). */
  mapUrl: externalLink.optional(),
  /** Where it stands, in WGS 84 degrees (what search engines and maps read). */
  geo: z.object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) }).optional(),
  /** When it sees patients: days (Monday to Sunday, Mo…Su) with the hours they open and close. */
  openingHours: z
    .array(
      z.object({
        days: z.array(z.enum(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'])).min(1),
        opens: timeOfDay,
        closes: timeOfDay,
      }),
    )
    .optional(),
});
export const internationalHospital = hospital.extend({
  country: text,
  content: html,
  highlights: z.array(text),
});

export const award = z.object({ id, year, title: text, issuer: text, image });
/** A published film: its files in the order a browser should try them, and its captions. */
const video = z.object({
  sources: z
    .array(z.object({ src: videoFile, type: z.enum(['video/webm', 'video/mp4']) }))
    .min(1)
    .max(4),
  /** WebVTT captions; `lang` is a BCP 47 tag (zh-CN), `label` what the player's menu shows. */
  captions: z.array(z.object({ src: captionsFile, lang: z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/), label: text })).max(8),
});
export const promotion = z.object({
  id,
  title: text,
  summary: text,
  /** The film's still, shown before it plays. */
  poster: image,
  /** The film's length as shown (mm:ss); only meaningful with `video`, and never shown without it. */
  duration: text.optional(),
  date: isoDate,
  /** The film itself; absent while it is not published (the page then says so). */
  video: video.optional(),
});

export const contactUs = z.object({
  groupName: text,
  address: text,
  postcode: text,
  /** The consultation phone shown in the footer. */
  phone: text,
  /** The group's public e-mail address, where it has one. */
  email: z.email().optional(),
  hours: text,
  /** The group's address on a map. */
  mapUrl: externalLink.optional(),
  /** How to book: by phone or WeChat (the site takes no bookings itself). */
  booking: z.object({ phone: text, hours: text, note: text }).optional(),
  /** The WeChat official account: its name, its QR code (`image`) and what it offers. */
  wechat: z.object({ account: text, image, note: text }).optional(),
  /** The site's ICP filing and public-security record numbers, each with its public register. */
  filings: z.object({ icp: text, icpUrl: externalLink, publicSecurity: text, publicSecurityUrl: externalLink }).optional(),
  branches: z.array(z.object({ name: text, address: text, phone: text, mapUrl: externalLink.optional() })),
});

/** A page of a longer list, with the total so that pages can be counted. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int().nonnegative(),
    page: z.number().int().positive(),
    pageSize: z.number().int().positive(),
  });
}
export type Page<T> = { items: T[]; total: number; page: number; pageSize: number };

export type Category = z.infer<typeof category>;
export type SubCategory = z.infer<typeof subCategory>;
export type GroupIntroduction = z.infer<typeof groupIntroduction>;
export type Banner = z.infer<typeof banner>;
export type Treatment = z.infer<typeof treatment>;
export type ExpertSummary = z.infer<typeof expertSummary>;
export type Expert = z.infer<typeof expert>;
export type ContentSummary = z.infer<typeof contentSummary>;
export type ContentDetail = z.infer<typeof contentDetail>;
export type Hospital = z.infer<typeof hospital>;
export type InternationalHospital = z.infer<typeof internationalHospital>;
export type Award = z.infer<typeof award>;
export type Promotion = z.infer<typeof promotion>;
export type Video = z.infer<typeof video>;
export type ContactUs = z.infer<typeof contactUs>;
