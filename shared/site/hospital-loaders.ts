/**
 * What the hospitals' pages read (docs/product/pages-and-paths.md): the hospital (domestic-hospitals;
 * international-hospitals for 国际医院), its doctors (the experts whose `hospital` names it, from the
 * experts' list, with their clinic days) and its news (the news items the search index finds under
 * its name). The hospital decides the status; doctors and news are left out when they cannot be
 * read. The instant the page was drawn at travels with it: the browser's first render reads the
 * hours at that instant, as the server did, and its own clock after (docs/decisions/062). A module
 * loaded when a hospital's page is first navigated to: it stays out of every page's first script.
 */
import { PAGE_SIZE_MAX } from '../constants.js';
import type { ContentApi } from '../content-api.js';
import type { ExpertSummary, Hospital, InternationalHospital } from '../contract/entities.js';
import { hospitalTimeZone, openingState, zoneOffset, type ZoneOffset } from '../opening-hours.js';
import { pageNotFound, requiredId, valueOf } from './loader-reads.js';
import { ROUTES } from './route-table.js';

/** Pages of the experts' list read for the doctors (50 experts each): a group of up to 1,000. */
const EXPERT_PAGES_MAX = 20;
/** Pages read at once beyond the first. */
const READS_AT_ONCE = 4;
/** A hospital's news on its page, and how many results are asked for to find them among other articles. */
const NEWS_SHOWN = 4;
const NEWS_ASKED = 10;

/** A news item as the page lists it. */
interface HospitalNewsItem {
  title: string;
  url: string;
  /** Its category and date. */
  meta: string;
}

export interface HospitalView<H extends Hospital> {
  hospital: H;
  /** Null when the experts could not be read; empty when none works there. */
  doctors: ExpertSummary[] | null;
  /** Null when the search could not answer. */
  news: HospitalNewsItem[] | null;
  /** The hospital's time zone's offset around the instant the page was read at: the browser reads its hours without Intl. */
  zoneOffset?: ZoneOffset | undefined;
}

async function everyExpert(api: ContentApi, signal: AbortSignal): Promise<ExpertSummary[]> {
  const read = (page: number) => api.get('experts', { query: { page, pageSize: PAGE_SIZE_MAX }, signal });
  const first = await read(1);
  const pages = Math.min(EXPERT_PAGES_MAX, Math.ceil(first.total / PAGE_SIZE_MAX));
  const items = [...first.items];
  for (let page = 2; page <= pages; page += READS_AT_ONCE) {
    const batch = Array.from({ length: Math.min(READS_AT_ONCE, pages - page + 1) }, (_, i) => read(page + i));
    for (const list of await Promise.all(batch)) items.push(...list.items);
  }
  return items;
}

/** The news items the index finds under the hospital's whole name (a search that finds only some of its words finds none). */
async function newsOf(api: ContentApi, name: string, signal: AbortSignal): Promise<HospitalNewsItem[]> {
  const answer = await api.search({ q: name, kind: 'article', pageSize: NEWS_ASKED }, signal, 'beside');
  if (answer.partial) return [];
  return answer.items
    .filter((hit) => hit.url.startsWith(`${ROUTES.reportDetail.path}?`))
    .slice(0, NEWS_SHOWN)
    .map(({ title, url, meta }) => ({ title, url, meta }));
}

/**
 * A hospital's doctors and news. A page kept (the page cache, the edge) must not outlive the
 * opening state it shows: the content API is told when that next changes.
 */
async function viewOf<H extends Hospital>(
  api: ContentApi,
  hospital: H,
  abroad: boolean,
  experts: Promise<ExpertSummary[]>,
  at: number,
  signal: AbortSignal,
): Promise<HospitalView<H>> {
  const zone = hospitalTimeZone(hospital, abroad);
  const offset = zone && hospital.openingHours?.length ? zoneOffset(zone, at) : undefined;
  if (zone && offset) api.changesAt?.(openingState(hospital.openingHours!, zone, at, offset).changesAt);
  const [doctors, news] = await Promise.allSettled([experts, newsOf(api, hospital.name, signal)]);
  return {
    hospital,
    doctors: valueOf(doctors)?.filter((e) => e.hospital === hospital.name) ?? null,
    news: valueOf(news),
    zoneOffset: offset,
  };
}

/** 医院详情: a hospital in China, by its `id`; an id it does not have is a 404. */
export async function hospitalPage(api: ContentApi, url: URL, signal: AbortSignal) {
  const id = requiredId(url);
  const hospital = (await api.get('domesticHospitals', { signal })).find((h) => h.id === id);
  if (!hospital) throw pageNotFound('no hospital with that id');
  const at = Date.now();
  return { at, ...(await viewOf(api, hospital, false, everyExpert(api, signal), at, signal)) };
}

/** 国际医院: every hospital abroad, each with the same parts as a hospital's own page. */
export async function internationalPage(api: ContentApi, _url: URL, signal: AbortSignal) {
  const hospitals = await api.get('internationalHospitals', { signal });
  const at = Date.now();
  const experts = hospitals.length > 0 ? everyExpert(api, signal) : Promise.resolve([]);
  return { at, hospitals: await Promise.all(hospitals.map((h) => viewOf<InternationalHospital>(api, h, true, experts, at, signal))) };
}
