/**
 * The browser's phrases. Hydration draws from the table the server wrote (server-phrases.tsx): the
 * same breaks, without the model. A navigation draws new titles: its loaders wait for the model
 * (phrase-breaks.ts, a file of its own, about 21 KB of brotli) to be loaded first, once a visit.
 */
import { isTitleLength, PHRASES_ID, type Phrases } from './phrases.js';

let table = new Map<string, readonly number[]>();
let compute: ((text: string) => readonly number[]) | undefined;
let loading: Promise<void> | undefined;

/** Reads the server's table from the page (before hydrating it). */
export function readPhraseTable(): void {
  const json = document.getElementById(PHRASES_ID)?.textContent;
  table = new Map(Object.entries(json ? (JSON.parse(json) as Record<string, number[]>) : {}));
}

export const browserPhrases: Phrases = {
  breaks: (text) => (isTitleLength(text) ? (table.get(text) ?? compute?.(text)) : undefined),
};

/**
 * Resolves once the model is loaded. A load that fails is logged and tried again by the next
 * navigation; the page is drawn meanwhile, its new titles set as running text.
 */
export function phrasesReady(): Promise<void> {
  loading ??= import('./phrase-breaks.js').then(
    (m) => {
      compute = m.phraseBreaks;
    },
    (error: unknown) => {
      loading = undefined;
      console.error('the phrase model could not be loaded', error);
    },
  );
  return loading;
}
