/**
 * The header's search (docs/product/search.md): a plain GET form to /search, which works before
 * and without the app's scripts. On a wide screen it sits behind a 搜索 button in the top bar,
 * beside the booking line (a <details>, which opens without scripts too); in the phone menu it is
 * at the top. The
 * suggestions (search-suggestions.tsx) are loaded when the field is first focused, so that a page
 * that is never searched never loads them (nor the phrase model, before a navigation).
 */
import { lazy, Suspense, useRef, useState } from 'react';
import { QUERY_MAX_CHARS } from '../../shared/search.js';
import { href } from '../../shared/site/href.js';
import { phrasesReady } from '../typeset/phrases-in-browser.js';
import '../styles/search.css';

// With the phrase model, which typesets the suggestions' titles.
const Suggestions = lazy(() => Promise.all([import('./search-suggestions.js'), phrasesReady()]).then(([suggestions]) => suggestions));

/** A search form; `id` names its field (the header's and the menu's are two forms). */
export function SearchBox({ id }: { id: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [suggesting, setSuggesting] = useState(false);
  // Submitted as it is, with or without the app: the search page is drawn by the server.
  return (
    <form className="search-box" action={href('search')} method="get" role="search" aria-label="全站搜索">
      <label className="sr-only" htmlFor={id}>
        搜索全站
      </label>
      <input
        ref={input}
        id={id}
        className="search-input"
        type="search"
        name="q"
        maxLength={QUERY_MAX_CHARS}
        placeholder="搜索疾病、专家、医院"
        autoComplete="off"
        enterKeyHint="search"
        onFocus={() => setSuggesting(true)}
      />
      <button className="search-submit" type="submit" aria-label="搜索">
        <span className="search-icon" aria-hidden="true" />
      </button>
      {suggesting ? (
        <Suspense>
          <Suggestions input={input} listId={`${id}-list`} />
        </Suspense>
      ) : null}
    </form>
  );
}

/**
 * The wide header's 搜索 button and the form it opens, its field focused; the suggestions close it
 * on Escape and on every navigation.
 */
export function SearchEntry() {
  return (
    <details
      className="search-entry"
      onToggle={(e) => {
        if (e.currentTarget.open) e.currentTarget.querySelector('input')?.focus();
      }}
    >
      <summary className="search-toggle">
        <span className="search-icon" aria-hidden="true" />
        <span className="search-toggle-label">搜索</span>
      </summary>
      <div className="search-panel">
        <SearchBox id="header-search" />
      </div>
    </details>
  );
}
