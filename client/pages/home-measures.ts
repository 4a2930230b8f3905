/**
 * What the home page renders, counted for the placeholder heights of its sections
 * (home-placeholders.css, docs/decisions/070): how many items each shows and how wide its
 * widest texts are, in em. The stylesheet turns them into a height at the width and
 * text size the page is drawn in; the server writes them into the section's style, so that the
 * estimate follows the content before any script runs.
 */
import type { ContentSummary, ExpertSummary, Hospital, InternationalHospital } from '../../shared/contract/entities.js';
import { ems, longest, type Measures } from '../components/placeholder-measures.js';

/** A section's heading block: its title and lead. */
export const headMeasures = (title: string, lead: string): Measures => ({ '--m-heading': ems(title), '--m-lead': ems(lead) });

export const treatmentMeasures = (treatments: readonly { title: string; summary: string }[]): Measures => ({
  '--m-items': treatments.length,
  '--m-title': longest(treatments.map((t) => t.title)),
  '--m-text': longest(treatments.map((t) => t.summary)),
});

export const expertMeasures = (experts: readonly ExpertSummary[]): Measures => ({
  '--m-items': experts.length,
  '--m-title': longest(experts.map((e) => `${e.name}${e.title}`)),
  '--m-text': longest(experts.map((e) => e.hospital)),
  '--m-name': longest(experts.map((e) => e.name)),
  '--m-specialty': longest(experts.map((e) => e.specialty)),
});

export const hospitalMeasures = (hospitals: readonly Hospital[], abroad: readonly InternationalHospital[]): Measures => ({
  '--m-items': hospitals.length,
  '--m-title': longest(hospitals.map((h) => h.name)),
  '--m-text': longest(hospitals.map((h) => h.address)),
  '--m-phone': longest(hospitals.map((h) => h.phone)),
  '--m-abroad': abroad.length,
  '--m-abroad-title': longest(abroad.map((h) => h.name)),
  '--m-abroad-text': longest(abroad.map((h) => h.summary)),
  '--m-abroad-list': longest(abroad.flatMap((h) => h.highlights.slice(0, 4))),
});

/** `rows` is how many rows the page shows under each column's lead. */
export function newsMeasures(categories: readonly { name: string; items: readonly ContentSummary[] }[], rows: number): Measures {
  const shown = categories.flatMap((c) => c.items.slice(1, 1 + rows));
  return {
    '--m-items': categories.length,
    '--m-name': longest(categories.map((c) => c.name)),
    '--m-title': longest(categories.map((c) => c.items[0]?.title)),
    '--m-rows': Math.max(0, ...categories.map((c) => Math.min(rows, c.items.length - 1))),
    '--m-row-title': longest(shown.map((i) => i.title)),
    '--m-row-text': longest(shown.map((i) => i.summary)),
  };
}
