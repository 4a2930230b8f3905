/**
 * Where a title's lines may break, as the page is drawn: the server computes it (phrase-breaks.ts)
 * and writes what it computed into the page; the browser hydrates from that and computes only for
 * what a navigation draws anew (phrases-in-browser.ts). Both reach typeset.tsx through this context.
 */
import { createContext, useContext } from 'react';

export interface Phrases {
  /**
   * The offsets before which `text` may break, or undefined where it is set as running text: too
   * long for a title, or (in the browser) not known yet.
   */
  breaks(text: string): readonly number[] | undefined;
}

/** The id of the <script type="application/json"> that carries the server's breaks, by text, to the browser. */
export const PHRASES_ID = '__phrases';

/** With no provider (a component drawn alone), text is set as running text. */
export const PhrasesContext = createContext<Phrases>({ breaks: () => undefined });

export const usePhrases = () => useContext(PhrasesContext);

/** Longer text is running text (a paragraph, a long summary): not set by phrases, on either side. */
const PHRASE_TEXT_MAX = 400;

/** Whether `text` is set by phrases at all: the same answer on both sides, before any lookup. */
export const isTitleLength = (text: string) => text.length <= PHRASE_TEXT_MAX;
