/**
 * Which element scrolls. In zoom mode the window does; in transform mode the body is scaled
 * and clipped (docs/product/scaling.md), so the app's root element scrolls inside it.
 */
export function scrollContainer(): HTMLElement | Window {
  if (document.documentElement.dataset.scale === 'transform') {
    const root = document.getElementById('root');
    if (root) return root;
  }
  return window;
}

export function scrollOffset(): number {
  const target = scrollContainer();
  return target instanceof Window ? target.scrollY : target.scrollTop;
}

const behavior = (): ScrollBehavior => (window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth');

export function scrollToTop(): void {
  scrollContainer().scrollTo({ top: 0, behavior: behavior() });
}

/** Brings the element with this id into view (its scroll-margin keeps it clear of the fixed header). */
export function scrollToAnchor(id: string): void {
  document.getElementById(decodeURIComponent(id))?.scrollIntoView({ behavior: behavior() });
}
