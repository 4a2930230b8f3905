/**
 * What the index holds of each item the site shows (docs/product/search.md): its kind, its title,
 * a summary and a body to match and quote, the page that shows it, one line about it and its
 * picture. Made from the content API's payloads as the service answers them (validated, sanitised,
 * pictures on the media endpoint).
 */
import { CATEGORY, RESEARCH_CATEGORY_IDS, RESEARCH_SUBCATEGORY_IDS } from '../../shared/constants.js';
import type { ApiData } from '../../shared/contract/api-paths.js';
import type { ContentDetail, ContentSummary, Expert, ExpertSummary, MediaImage } from '../../shared/contract/entities.js';
import type { SearchKind } from '../../shared/search.js';
import { contentHref, expertHref, hospitalHref, href, treatmentHref } from '../../shared/site/href.js';
import { CATEGORY_NAMES, type CategoryId } from '../../shared/site/route-table.js';

export interface SearchDocument {
  /** Unique in the index: what it is and its id (`content:12`, `expert:3`, `hospital:2`, `abroad:1`, …). */
  key: string;
  kind: SearchKind;
  id: number;
  title: string;
  /** Other names a patient calls it by, which name it in search as its title does (a hospital's city). */
  aliases?: string[] | undefined;
  summary: string;
  body: string;
  /** The title is a person's name: matched in pinyin as a name, and an exact match ranks first. */
  isName: boolean;
  /**
   * The title is indexed in pinyin too: every item but the content items without a body (beyond
   * the newest BODIES_MAX), whose pinyin would cost most of a large index's building and memory.
   */
  spelled: boolean;
  url: string;
  meta: string;
  picture?: MediaImage | undefined;
  /** An expert's hospital, specialties and clinic days, for the expert finder and its cards. */
  expert?: { title: string; hospital: string; specialties: string[]; schedule?: string[] | undefined } | undefined;
}

/** A body is indexed and quoted up to this many characters: enough for what an item is about. */
const BODY_MAX_CHARS = 1_500;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Sanitised HTML as plain text, its whitespace folded, cut at BODY_MAX_CHARS. */
function htmlText(html: string): string {
  const text = html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
    })
    .replace(/\s+/g, ' ')
    .trim();
  return [...text].slice(0, BODY_MAX_CHARS).join('');
}

const parentOf = (categoryId: number): number | undefined =>
  ([17, 18] as const).find((p) => (RESEARCH_SUBCATEGORY_IDS[p] as readonly number[]).includes(categoryId));

/** The kind of a content item, by its category; undefined for a category the site does not show. */
function contentKind(categoryId: number): SearchKind | undefined {
  if (categoryId === CATEGORY.equipment) return 'treatment';
  if ((RESEARCH_CATEGORY_IDS as readonly number[]).includes(categoryId)) return 'research';
  if (([CATEGORY.knowledge, CATEGORY.groupNews, CATEGORY.hospitalNews, CATEGORY.mediaReports] as number[]).includes(categoryId))
    return 'article';
  return undefined;
}

const categoryName = (id: number) => CATEGORY_NAMES[(parentOf(id) ?? id) as CategoryId];
const joined = (parts: (string | undefined)[], separator = ' · ') => parts.filter(Boolean).join(separator);

/** An article, research item or news item: from its list entry, with its body when its detail was read. */
export function contentDocument(item: ContentSummary | ContentDetail): SearchDocument | undefined {
  const kind = contentKind(item.categoryId);
  if (!kind) return undefined;
  return {
    key: `content:${item.id}`,
    kind,
    id: item.id,
    title: item.title,
    summary: item.summary ?? '',
    body: 'content' in item ? htmlText(item.content) : '',
    isName: false,
    spelled: 'content' in item,
    url: contentHref(item),
    meta: joined([categoryName(item.categoryId), item.date]),
    picture: item.cover,
  };
}

/** An expert's specialties, as the finder lists them: 屈光手术、角膜病 is two. */
const specialtiesOf = (specialty: string) =>
  specialty
    .split(/[、，,；;／/]/)
    .map((s) => s.trim())
    .filter(Boolean);

export function expertDocument(expert: ExpertSummary | Expert): SearchDocument {
  const detail = 'content' in expert ? expert : undefined;
  return {
    key: `expert:${expert.id}`,
    kind: 'expert',
    id: expert.id,
    title: expert.name,
    summary: joined([expert.title, expert.hospital, `擅长${expert.specialty}`], '，'),
    body: detail ? joined([detail.education, htmlText(detail.content), ...detail.achievements], ' ') : '',
    isName: true,
    spelled: true,
    url: expertHref(expert.id),
    meta: joined([expert.title, expert.hospital]),
    picture: expert.avatar,
    expert: { title: expert.title, hospital: expert.hospital, specialties: specialtiesOf(expert.specialty), schedule: expert.schedule },
  };
}

export function treatmentDocuments(data: ApiData<'specialtyTreatment'>): SearchDocument[] {
  return data.data.map((t) => ({
    key: `treatment:${t.id}`,
    kind: 'treatment',
    id: t.id,
    title: t.title,
    summary: t.summary,
    body: htmlText(t.content),
    isName: false,
    spelled: true,
    url: treatmentHref(t.title),
    meta: CATEGORY_NAMES[CATEGORY.featuredTreatments],
    picture: t.image ?? t.icon,
  }));
}

export function hospitalDocuments(domestic: ApiData<'domesticHospitals'>, abroad: ApiData<'internationalHospitals'>): SearchDocument[] {
  const hospital = (h: ApiData<'domesticHospitals'>[number], key: string, url: string, extra: string[]): SearchDocument => ({
    key,
    kind: 'hospital',
    id: h.id,
    title: h.name,
    aliases: [h.city],
    summary: joined([h.city, h.summary], '，'),
    body: joined([h.address, h.phone, ...h.departments, ...extra], ' '),
    isName: false,
    spelled: true,
    url,
    meta: joined([h.city, h.address]),
    picture: h.image,
  });
  return [
    ...domestic.map((h) => hospital(h, `hospital:${h.id}`, hospitalHref(h), [])),
    ...abroad.map((h) =>
      hospital(h, `abroad:${h.id}`, hospitalHref({ id: h.id, abroad: true }), [h.country, ...h.highlights, htmlText(h.content)]),
    ),
  ];
}

export function filmDocuments(films: ApiData<'promotions'>): SearchDocument[] {
  return films.map((f) => ({
    key: `film:${f.id}`,
    kind: 'film',
    id: f.id,
    title: f.title,
    summary: f.summary,
    body: '',
    isName: false,
    spelled: true,
    url: href('promotions'),
    meta: joined(['企业宣传片', f.date, f.video ? f.duration : undefined]),
    picture: f.poster,
  }));
}
