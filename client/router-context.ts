/** What the routes' loaders read through the router's context: given by the server per request, by the browser once. */
import { createContext } from 'react-router';
import type { ContentApi } from '../shared/content-api.js';

/** The ContentApi that loaders read through. */
export const contentApiContext = createContext<ContentApi>();

/**
 * Loads what a page drawn anew needs beside its data, and resolves once it has: on the server,
 * nothing; in the browser, the phrase model its titles are typeset with
 * (client/typeset/phrases-in-browser.ts) and the content API's code (content-api-on-demand.ts),
 * once a visit. A navigation's loader starts it before its own code arrives.
 */
export const navigationCodeContext = createContext<() => Promise<void>>(() => Promise.resolve());
