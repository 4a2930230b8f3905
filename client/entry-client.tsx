/**
 * Hydrates the server's page. The matched lazy page modules are loaded first (the server
 * already preloaded them), so React hydrates the same tree the server drew, with the server's
 * loader data: no second fetch, no fallback, no second copy of the page. Once it has hydrated, a
 * sampled page view is measured (client/rum).
 */
import './styles/scaling.css';
import { startTransition, StrictMode } from 'react';
import { createBrowserRouter, matchRoutes, RouterContextProvider, type HydrationState, type RouterContext } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { routerSafe } from '../shared/router-safe.js';
import { createRoutes, ROUTER_DATA_ID } from './app-routes.js';
import { contentApiOnDemand, contentApiReady } from './content-api-on-demand.js';
import { contentApiContext, navigationCodeContext } from './router-context.js';
import { RumAfterHydration } from './rum/start-rum.js';
import { LargeTextContext, largeTextInDocument } from './text-size.js';
import { browserPhrases, phrasesReady, readPhraseTable } from './typeset/phrases-in-browser.js';
import { PhrasesContext } from './typeset/phrases.js';

/** What a navigation's page needs beside its data: the phrase model and the content API's code. */
const navigationCode = async () => void (await Promise.all([phrasesReady(), contentApiReady()]));

/** Resolves in a later task: the browser may paint and answer input in between. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function hydrate(): Promise<void> {
  // The head script may start the app while the document is still arriving (after the first
  // paint, with the modules already in the HTTP cache): the tree and its data must be whole.
  if (document.readyState === 'loading') {
    await new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }));
  }
  // The target the server rendered (an encoded tab or newline in the path escaped once more).
  const { pathname, search, hash } = window.location;
  const safe = routerSafe(pathname);
  if (safe !== pathname) window.history.replaceState(window.history.state, '', safe + search + hash);
  // Each step below in a task of its own (docs/decisions/054, 073): 4 to 11 ms each at a new page's
  // start on a slow machine, and together longer than a tap should wait for an answer.
  const routes = createRoutes();
  const lazyMatches = matchRoutes(routes, window.location)?.filter((m) => m.route.lazy) ?? [];
  await nextTask();
  await Promise.all(
    lazyMatches.map(async (m) => {
      const lazy = m.route.lazy as () => Promise<object>;
      Object.assign(m.route, { ...(await lazy()), lazy: undefined });
    }),
  );
  await nextTask();
  const dataElement = document.getElementById(ROUTER_DATA_ID);
  const hydrationData = JSON.parse(dataElement?.textContent ?? '{}') as HydrationState;
  readPhraseTable();
  // React DOM's client is in this file too, but evaluated only when imported here, in a task of
  // its own. Evaluated with the app's modules, it made the longest task of a phone's start (054).
  await nextTask();
  const { hydrateRoot } = await import('react-dom/client');
  await nextTask();
  const router = createBrowserRouter(routes, {
    hydrationData,
    getContext: () =>
      new RouterContextProvider(
        new Map<RouterContext, unknown>([
          [contentApiContext, contentApiOnDemand],
          [navigationCodeContext, navigationCode],
        ]),
      ),
  });
  await nextTask();
  // In a transition, hydration yields to the browser between pieces of work instead of
  // holding the main thread in one long task.
  startTransition(() => {
    hydrateRoot(
      document.getElementById('root')!,
      <StrictMode>
        <LargeTextContext value={largeTextInDocument()}>
          <PhrasesContext value={browserPhrases}>
            <RouterProvider router={router} />
          </PhrasesContext>
        </LargeTextContext>
        <RumAfterHydration />
      </StrictMode>,
    );
  });
}

void hydrate();
