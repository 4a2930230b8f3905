/**
 * The index of what the site shows (docs/decisions/034): MiniSearch (BM25+, per-field weights)
 * over our own terms (terms.ts). A query's words must all be found (in any field); when no item
 * has all of them, the items with some of them are shown and the answer says so. Titles weigh
 * most, then names and titles in pinyin and summaries, then bodies; and the pages a patient comes
 * for (a treatment, a hospital, a doctor) whose title the query is, begins or has as words come
 * before everything that merely mentions it (title-match.ts).
 */
import MiniSearch, { type SearchResult } from 'minisearch';
import { SEARCH_KINDS } from '../../shared/search-query.js';
import { SEARCH_RESULTS_MAX, type ExpertFacets, type SearchKind, type SearchQuery } from '../../shared/search.js';
import type { SearchDocument } from './documents.js';
import { underTreatment } from './featured-specialties.js';
import { isPrefixTerm, pinyinTerms, queryTerms, textTerms, type Reading } from './terms.js';
import { nameForms, titleMatch, typedQuery, type NameForms, type TypedQuery } from './title-match.js';

/** What MiniSearch indexes of a document. */
interface Indexed {
  key: string;
  title: string;
  pinyin: string;
  summary: string;
  body: string;
}

const FIELDS = ['title', 'pinyin', 'summary', 'body'] as const;
const BOOST: Record<(typeof FIELDS)[number], number> = { title: 5, pinyin: 2, summary: 2, body: 1 };
/** The kinds whose pages a query names by their title: what a patient comes for, where an article or a film is about something. */
const NAMED_KINDS: ReadonlySet<SearchKind> = new Set(['treatment', 'hospital', 'expert']);
/**
 * The most postings a query may score in the archive (the older content items, titles and summaries
 * only): MiniSearch scores every posting of every word, a microsecond or more each, so words that
 * tens of thousands of old items share would take a query past its 10 ms. Their number is
 * estimated from how often the words occur among the newest items, searched first (3,000 postings: about 3 ms).
 */
const ARCHIVE_POSTINGS_MAX = 3_000;
/** What the archive indexes of an item. */
const ARCHIVE_FIELDS = ['title', 'summary'];

interface Found {
  doc: SearchDocument;
  /** The query's terms it matched, for marking them. */
  terms: string[];
}

export interface IndexAnswer {
  /** The results of the query's kind, best first, at most SEARCH_RESULTS_MAX. */
  found: Found[];
  /** All results, by kind. */
  byKind: Record<SearchKind, number>;
  partial: boolean;
  /** The words were too common for the older content items to be searched: the newest and every other kind were. */
  narrowed: boolean;
}

const noKinds = (): Record<SearchKind, number> =>
  Object.fromEntries(Object.keys(SEARCH_KINDS).map((k) => [k, 0])) as Record<SearchKind, number>;

/** An item's names, each with how it is read in pinyin: its title, and the others a patient calls it by. */
const namesOf = (doc: SearchDocument): [string, Reading][] => [
  [doc.title, doc.isName ? 'name' : 'title'],
  ...(doc.aliases ?? []).map((alias): [string, Reading] => [alias, 'word']),
];

/** One of the two indexes: everything but the older content items, and those (decision 035). */
const miniSearch = () =>
  new MiniSearch<Indexed>({
    idField: 'key',
    fields: [...FIELDS],
    storeFields: [],
    // Terms are made folded by terms.ts; pinyin arrives as its terms, space-separated.
    tokenize: (text, field) => (field === 'pinyin' ? text.split(' ') : textTerms(text)),
    processTerm: (term) => term || null,
    // Replaced documents are cleaned out of the postings in the background, in batches.
    autoVacuum: { minDirtCount: 200, minDirtFactor: 0.1, batchSize: 1_000, batchWait: 10 },
  });

export class SearchIndex {
  /** Every item but the older content items: small, searched whole for every query. */
  readonly #recent = miniSearch();
  /** The older content items (no body, no pinyin), searched when the words are rare enough among them. */
  readonly #archive = miniSearch();
  /** Content items in #recent, the sample the archive's work is estimated from. */
  #recentContent = 0;
  readonly #docs = new Map<string, SearchDocument>();
  /** The names of the items of NAMED_KINDS, as queries are compared with them. */
  readonly #names = new Map<string, NameForms[]>();
  #facets: ExpertFacets | undefined;

  get size(): number {
    return this.#docs.size;
  }

  get(key: string): SearchDocument | undefined {
    return this.#docs.get(key);
  }

  keys(): IterableIterator<string> {
    return this.#docs.keys();
  }

  /** Adds a document, or replaces the one with its key. */
  put(doc: SearchDocument): void {
    this.#discard(doc.key);
    const names = namesOf(doc);
    const pinyin = doc.spelled ? names.flatMap(([name, reading]) => pinyinTerms(name, reading)) : [];
    this.#tierOf(doc).add({ key: doc.key, title: doc.title, pinyin: pinyin.join(' '), summary: doc.summary, body: doc.body });
    if (doc.spelled && doc.key.startsWith('content:')) this.#recentContent++;
    this.#docs.set(doc.key, doc);
    if (NAMED_KINDS.has(doc.kind)) this.#names.set(doc.key, nameForms(names, doc.spelled));
    if (doc.kind === 'expert' || doc.kind === 'treatment') this.#facets = undefined;
  }

  remove(key: string): void {
    const doc = this.#docs.get(key);
    if (!doc) return;
    this.#discard(key);
    this.#docs.delete(key);
    if (doc.kind === 'expert' || doc.kind === 'treatment') this.#facets = undefined;
  }

  search(query: SearchQuery): IndexAnswer {
    const terms = queryTerms(query.q);
    if (terms.length === 0) return this.#browse(query);
    let { results, narrowed } = this.#both(terms, 'AND', query);
    const partial = results.length === 0 && terms.length > 1;
    if (partial) ({ results, narrowed } = this.#both(terms, 'OR', query));
    const byKind = noKinds();
    const found: Found[] = [];
    for (const r of this.#rank(results, typedQuery(query.q))) {
      const doc = this.#docs.get(r.id as string)!;
      byKind[doc.kind]++;
      if ((!query.kind || doc.kind === query.kind) && found.length < SEARCH_RESULTS_MAX) found.push({ doc, terms: r.queryTerms });
    }
    return { found, byKind, partial, narrowed };
  }

  /**
   * Best first: the items the query names by title, closest first, then the rest; each by score.
   * How closely it names an item (0 to 3) lifts the item's score by as many times the highest
   * score, which no score's difference can overtake: one sort, nothing copied (a query may find
   * tens of thousands).
   */
  #rank(results: SearchResult[], typed: TypedQuery): SearchResult[] {
    let highest = 0;
    for (const r of results) if (r.score > highest) highest = r.score;
    for (const r of results) {
      const names = this.#names.get(r.id as string);
      if (names) r.score += titleMatch(names, typed) * highest;
    }
    return results.sort((a, b) => b.score - a.score);
  }

  /** The newest items and every other kind, then the older content items unless the words are too common among them. */
  #both(terms: string[], combineWith: 'AND' | 'OR', query: SearchQuery): { results: SearchResult[]; narrowed: boolean } {
    const recent = this.#run(this.#recent, terms, combineWith, query);
    if (
      this.#archive.documentCount === 0 ||
      (query.kind && query.kind !== 'article' && query.kind !== 'treatment' && query.kind !== 'research')
    )
      return { results: recent, narrowed: false };
    // How many postings the words have among the newest content items (any of them: the archive scores
    // each word's postings before it combines them), scaled to the archive's size.
    // Titles and summaries only, as the archive holds: fewer postings to score than the bodies', and the same kind of text.
    const sample = this.#run(this.#recent, terms, 'OR', query, ARCHIVE_FIELDS);
    let sampled = 0;
    // (Index terms, not query terms: a prefix stands for every term it begins.)
    for (const r of sample) if ((r.id as string).startsWith('content:')) sampled += r.terms.length;
    const estimate = (sampled * this.#archive.documentCount) / Math.max(1, this.#recentContent);
    if (estimate > ARCHIVE_POSTINGS_MAX) return { results: recent, narrowed: true };
    return { results: [...recent, ...this.#run(this.#archive, terms, combineWith, query)], narrowed: false };
  }

  #tierOf(doc: SearchDocument): MiniSearch<Indexed> {
    return doc.spelled ? this.#recent : this.#archive;
  }

  #discard(key: string): void {
    const doc = this.#docs.get(key);
    if (!doc) return;
    this.#tierOf(doc).discard(key);
    this.#names.delete(key);
    if (doc.spelled && doc.key.startsWith('content:')) this.#recentContent--;
  }

  /**
   * The experts' hospitals, most experts first, and the featured treatments the experts are under
   * (featured-specialties.ts), in the treatments' order: each counted among the experts the other
   * filter leaves (a hospital among those under the treatment asked for, and the other way round),
   * and left out where none is, so that every choice offered finds someone.
   */
  facets({ hospital, specialty }: Pick<SearchQuery, 'hospital' | 'specialty'> = {}): ExpertFacets {
    const whole = !hospital && !specialty;
    if (whole && this.#facets) return this.#facets;
    const hospitals = new Map<string, number>();
    const specialties = new Map<string, number>();
    for (const doc of this.#docs.values()) if (doc.kind === 'treatment') specialties.set(doc.title, 0);
    for (const doc of this.#docs.values()) {
      const expert = doc.expert;
      if (!expert) continue;
      if (!specialty || underTreatment(expert.specialties, specialty))
        hospitals.set(expert.hospital, (hospitals.get(expert.hospital) ?? 0) + 1);
      if (hospital && expert.hospital !== hospital) continue;
      for (const [title, count] of specialties) if (underTreatment(expert.specialties, title)) specialties.set(title, count + 1);
    }
    const list = (counts: Iterable<[string, number]>) =>
      [...counts].filter(([, count]) => count > 0).map(([name, count]) => ({ name, count }));
    const facets = {
      hospitals: list([...hospitals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0], 'zh-CN'))),
      specialties: list(specialties),
    };
    if (whole) this.#facets = facets;
    return facets;
  }

  #run(mini: MiniSearch<Indexed>, terms: string[], combineWith: 'AND' | 'OR', query: SearchQuery, fields?: string[]): SearchResult[] {
    return mini.search(terms.join(' '), {
      ...(fields ? { fields } : {}),
      tokenize: (text) => text.split(' '),
      processTerm: (term) => term,
      boost: BOOST,
      // Only the last word may be unfinished (a visitor still typing): the others are matched whole.
      prefix: (term, i, all) => i === all.length - 1 && isPrefixTerm(term),
      combineWith,
      filter: query.hospital || query.specialty ? (r) => this.#inFinder(r.id as string, query) : undefined,
    });
  }

  /** An expert with the finder's hospital and under its featured treatment, when it asks for them. */
  #inFinder(key: string, { hospital, specialty }: SearchQuery): boolean {
    const expert = this.#docs.get(key)?.expert;
    return !!expert && (!hospital || expert.hospital === hospital) && (!specialty || underTreatment(expert.specialties, specialty));
  }

  /** No words: the items of a kind in the content API's order (the expert finder without words); nothing without a kind. */
  #browse(query: SearchQuery): IndexAnswer {
    const byKind = noKinds();
    const found: Found[] = [];
    if (!query.kind) return { found, byKind, partial: false, narrowed: false };
    for (const doc of this.#docs.values()) {
      if (doc.kind !== query.kind || ((query.hospital || query.specialty) && !this.#inFinder(doc.key, query))) continue;
      byKind[doc.kind]++;
      if (found.length < SEARCH_RESULTS_MAX) found.push({ doc, terms: [] });
    }
    return { found, byKind, partial: false, narrowed: false };
  }
}
