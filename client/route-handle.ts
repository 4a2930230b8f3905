/** What a matched route tells the document and the server (the statuses a page answers with: shared/problems.ts). */
import type { RouteKey } from '../shared/site/route-table.js';

/** What a matched route tells the document and the server: its route and its page module. */
export interface RouteHandle {
  route?: RouteKey;
  title: string;
  /** The page module, as Vite's manifest names it (client/pages/x-page.tsx). */
  module?: string;
}
