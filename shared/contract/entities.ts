/**
 * The shapes of the content API's payloads: defined once, used by the embedded content API,
 * the proxy's validation and the pages. Every field named `content` holds HTML; the service
 * sanitises those fields at its boundary before anything is cached or shown.
 */
import { z } from 'zod';

const id = z.number().int().positive();
const text = z.string().min(1).max(2_000);
const longText = z.string().min(1).max(20_000);
/**
 * Media as the content API names it (docs/product/media.md): an absolute http(s) URL, or a path
 * on the content API, in any letter case. Which origins may be fetched is the service's setting,
 * checked where answers are read (server/proxy/content-reader.ts), which turns each into a
 * `MediaImage` or `MediaFile` on this site's media endpoint.
 */
const mediaSource = (extensions: string) =>
  z
    .string()
    .max(2_000)
    .regex(new RegExp(`^(?:https?://[^/?#\\s]+)?/(?!/)[^?#\\s]*\\.(?:${extensions})(?:[?#]\\S*)?$`, 'i'));
/** A picture: JPEG, PNG, WebP, AVIF, GIF or SVG. */
export const imageSource = mediaSource('jpe?g|png|webp|avif|gif|svg').brand<'ImageSource'>();
/** A film file (MP4, WebM) or its captions (WebVTT). */
export const fileSource = mediaSource('mp4|webm|vtt').brand<'FileSource'>();
const image = imageSource.optional();

/** A picture as the service answers it: served by its media endpoint, with what it knows of it. */
export const mediaImage = z.object({
  /** A variant about 1080 px wide on this site (`/_media/1080/<version>/<ref>`). */
  src: z.string(),
  /** The source URL in base64url: `/_media/<width>/<version>/<ref>` for width 96, 192, 384, 640, 828, 1080, 1600 or 2400. */
  ref: z.string(),
  /** The first 12 hex digits of the SHA-256 of the original's bytes; `0` while it is not known. */
  version: z.string(),
  /** The original's size in pixels, upright, when known. */
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  /** Its dominant colour (`#rrggbb`), for the box shown before it loads. */
  color: z.string().optional(),
});
export type MediaImage = z.infer<typeof mediaImage>;
/** A film or captions file as the service answers it: passed through by its media endpoint. */
export const mediaFile = z.object({ src: z.string() });
export type MediaFile = z.infer<typeof mediaFile>;

/** A payload as the service answers it: every media source made a `MediaImage` or `MediaFile`. */
export type Served<T> =
  T extends z.infer<typeof imageSource>
    ? MediaImage
    : T extends z.infer<typeof fileSource>
      ? MediaFile
      : T extends readonly (infer U)[]
        ? Served<U>[]
        : T extends object
          ? { [K in keyof T]: Served<T[K]> }
          : T;
/** A link inside this site: a path, never a scheme or another host. */
const internalLink = z.string().regex(/^\/(?!\/)[^\s]*$/);
/** A link to another site (a map, a public register): https only, never a script or a data: URL. */
const externalLink = z.url({ protocol: /^https$/ }).max(2_000);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const year = z.number().int().min(1900).max(2100);
/** A time zone as IANA names it (Asia/Shanghai, Australia/Sydney), one the runtime knows. */
const timeZone = z
  .string()
  .max(64)
  .regex(/^[A-Za-z]+(?:\/[A-Za-z0-9_+-]+){1,2}$/)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'not a time zone this runtime knows');
/** A time of day, 24-hour `HH:MM`. */
const timeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);
/** Upstream HTML; sanitised by the service before it is cached or rendered. */
export const html = z.string().max(200_000);

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

export const banner = z.object({ id, title: text, subtitle: text.optional(), image, link: internalLink });

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
  /** Clinic days as the content words them, one half-day each (周一上午 专家门诊): in a list, where the content gives them. */
  schedule: z.array(text).optional(),
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
  summary: text.optional(),
  cover: image,
  date: isoDate.optional(),
});
export const contentDetail = contentSummary.extend({
  content: html,
  source: text.optional(),
  author: text.optional(),
  views: z.number().int().nonnegative().optional(),
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
  /** Where its clock is (IANA): a hospital in China is on Asia/Shanghai when the content names none. */
  timeZone: timeZone.optional(),
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
    .array(z.object({ src: fileSource, type: z.enum(['video/webm', 'video/mp4']) }))
    .min(1)
    .max(4),
  /** WebVTT captions; `lang` is a BCP 47 tag (zh-CN), `label` what the player's menu shows. */
  captions: z.array(z.object({ src: fileSource, lang: z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/), label: text })).max(8),
});
export const promotion = z.object({
  id,
  title: text,
  summary: text,
  /** The film's still, shown before it plays. */
  poster: image,
  /** The film's length as shown (mm:ss); only meaningful with `video`, and never shown without it. */
  duration: text.optional(),
  date: isoDate.optional(),
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

export type Category = Served<z.infer<typeof category>>;
export type GroupIntroduction = Served<z.infer<typeof groupIntroduction>>;
export type Banner = Served<z.infer<typeof banner>>;
export type ExpertSummary = Served<z.infer<typeof expertSummary>>;
export type Expert = Served<z.infer<typeof expert>>;
export type ContentSummary = Served<z.infer<typeof contentSummary>>;
export type ContentDetail = Served<z.infer<typeof contentDetail>>;
export type Hospital = Served<z.infer<typeof hospital>>;
export type InternationalHospital = Served<z.infer<typeof internationalHospital>>;
export type Promotion = Served<z.infer<typeof promotion>>;
export type Video = Served<z.infer<typeof video>>;
export type ContactUs = Served<z.infer<typeof contactUs>>;
