/**
 * What a matched route tells the document and the server, and the statuses a page answers with:
 * one table for the router's errors and the server's responses.
 */
import type { RouteKey } from './route-table.js';

/** What a matched route tells the document and the server: its route and its page module. */
export interface RouteHandle {
  route?: RouteKey;
  title: string;
  /** The page module, as Vite's manifest names it (client/pages/x-page.tsx). */
  module?: string;
}

/** A page answers 200, or says its content does not exist (404), the visitor asked too often (429), or it cannot be had (503). */
const PAGE_STATUSES = new Set([200, 404, 429]);

/** The status a page answers with for a status it met: itself when a page may answer it, else 503. */
export const pageStatus = (status: number): number => (PAGE_STATUSES.has(status) ? status : 503);
