/**
 * The server's phrases for one render: each text's breaks (phrase-breaks.ts, cached across renders),
 * remembered, and written after the page as a table by text, from which the browser hydrates
 * (phrases-in-browser.ts) without the model: the same breaks, the same markup.
 */
import { serializeForScript } from '../../shared/escape-json.js';
import { phraseBreaks } from './phrase-breaks.js';
import { isTitleLength, PHRASES_ID, type Phrases } from './phrases.js';

interface RenderPhrases extends Phrases {
  /** The table of every text typeset so far; after it is written, a text typeset anew is an error. */
  written(): Record<string, readonly number[]>;
}

export function renderPhrases(onLate: (text: string) => void): RenderPhrases {
  const used = new Map<string, readonly number[]>();
  let sealed = false;
  return {
    breaks(text) {
      if (!isTitleLength(text)) return undefined;
      let breaks = used.get(text);
      if (!breaks) {
        breaks = phraseBreaks(text);
        used.set(text, breaks);
        if (sealed) onLate(text);
      }
      return breaks;
    },
    written() {
      sealed = true;
      return Object.fromEntries(used);
    },
  };
}

/**
 * The table, drawn after the app's root: React renders the tree in order, and no part of it waits
 * (the route's page module is loaded before the render starts), so by now every title is in it. A
 * part that suspended would be typeset later: renderPhrases reports it (onLate).
 */
export function PhraseTable({ phrases }: { phrases: RenderPhrases }) {
  return <script type="application/json" id={PHRASES_ID} dangerouslySetInnerHTML={{ __html: serializeForScript(phrases.written()) }} />;
}
