/** On every client-side navigation: the page's title (docs/product/routes.md) and a smooth scroll to the top, or to the address's anchor. */
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useMatches } from 'react-router';
import { documentTitle } from '../../shared/site/page-title.js';
import type { RouteHandle } from '../route-handle.js';
import { scrollToAnchor, scrollToTop } from '../scroll.js';

/** The deepest matched route's title: an item's page names its item first (shared/site/page-title.ts). */
function pageTitle(matches: ReturnType<typeof useMatches>, search: string): string | undefined {
  for (let i = matches.length - 1; i >= 0; i--) {
    const match = matches[i]!;
    const handle = match.handle as RouteHandle | undefined;
    if (handle?.route) return documentTitle(handle.route, match.loaderData, new URLSearchParams(search));
    if (handle?.title) return handle.title;
  }
  return undefined;
}

export function NavigationEffects() {
  const matches = useMatches();
  const location = useLocation();
  const title = pageTitle(matches, location.search);
  const first = useRef(true);

  // Marks the document once React has hydrated it (tests and monitoring wait for this).
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);

  // A layout effect, so that an error state's own title (set in a plain effect) wins.
  useLayoutEffect(() => {
    if (title) document.title = title;
  }, [title, location.key]);

  useEffect(() => {
    // The first render is the server's page at its own scroll position.
    if (first.current) {
      first.current = false;
      return;
    }
    if (location.hash) scrollToAnchor(location.hash.slice(1));
    else scrollToTop();
  }, [location.pathname, location.search, location.hash]);

  return null;
}
