/**
 * What a part drawn only as it nears the window holds (the home page's sections, the footer),
 * counted for the height it keeps until then (docs/decisions/070): item counts and the widths of
 * texts, written into its style as custom properties that its stylesheet turns into a height.
 * Only the server counts (server-measurer.ts, provided by entry-server.tsx): the browser keeps what
 * the server wrote when it hydrates, and a part it draws itself (a client-side navigation) has no
 * counts and is laid out with the page (home-placeholders.css).
 */
import { createContext, useContext } from 'react';
import type {
  ContentSummary,
  ExpertSummary,
  Hospital,
  InternationalHospital,
  ContactUs,
  GroupIntroduction,
} from '../../shared/contract/entities.js';
import type { FooterColumn } from '../../shared/site/navigation.js';

/** Custom properties, by name, each a number. */
export type Measures = Record<`--${string}`, number>;

export interface Measurer {
  /** A home section's heading block: its title and lead. */
  head(title: string, lead: string): Measures;
  treatments(treatments: readonly { title: string; summary: string }[]): Measures;
  experts(experts: readonly ExpertSummary[]): Measures;
  hospitals(hospitals: readonly Hospital[], abroad: readonly InternationalHospital[]): Measures;
  /** `rows`: how many rows each column shows under its lead. */
  news(categories: readonly { name: string; items: readonly ContentSummary[] }[], rows: number): Measures;
  footer(
    contact: ContactUs | null | undefined,
    intro: GroupIntroduction | null | undefined,
    groupName: string | undefined,
    columns: readonly FooterColumn[],
  ): Measures;
}

/** With no provider (in the browser), nothing is counted. */
export const MeasurerContext = createContext<Measurer | undefined>(undefined);

export const useMeasurer = () => useContext(MeasurerContext);
