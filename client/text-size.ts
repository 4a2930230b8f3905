/**
 * Whether the page is drawn in the large-text mode (长者模式). The server decides it (from the
 * visitor's cookie) and renders with it; the browser reads it back from the <html> element the
 * server wrote, so that hydration draws the same.
 */
import { createContext, useContext } from 'react';

export const LargeTextContext = createContext(false);

export const useLargeText = () => useContext(LargeTextContext);

/** In the browser: what the server decided for this page. */
export const largeTextInDocument = () => document.documentElement.dataset.text === 'large';
