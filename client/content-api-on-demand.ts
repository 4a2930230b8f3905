/**
 * The browser's ContentApi as the router is given it: its code (browser-content-api.ts) loaded when
 * a navigation first needs it, as the loaders' own is (docs/decisions/071).
 */
import type { ContentApi } from '../shared/content-api.js';

const loaded = async () => (await import('./browser-content-api.js')).browserContentApi;

/**
 * Starts loading the code, and resolves once it has loaded or failed to: a failure is reported by
 * the read that needs it, which imports it again.
 */
export const contentApiReady = (): Promise<void> =>
  loaded().then(
    () => undefined,
    () => undefined,
  );

export const contentApiOnDemand: ContentApi = {
  get: async (name, request) => (await loaded()).get(name, request),
  search: async (params, signal) => (await loaded()).search(params, signal),
};
