/**
 * Suggestions under a search field, as the WAI-ARIA Authoring Practices' combobox with a listbox
 * popup (list autocomplete): the field is the combobox; typing asks /api/search for a handful of
 * results (after a pause, the previous question dropped); Down and Up move through them
 * (aria-activedescendant), Enter opens the one chosen or, with none chosen, submits the form (the
 * search page), Escape closes the list, then the header's panel. A polite status line says how
 * many there are. Loaded only when a search field is first focused (search-entry.tsx).
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { SEARCH_KINDS } from '../../shared/search-query.js';
import type { SearchHit } from '../../shared/search.js';
import { browserContentApi } from '../browser-content-api.js';
import { useTypesetHtml } from '../typeset/typeset-html.js';

/** Suggestions asked for: a handful. */
const SHOWN = 6;
/** The pause in typing after which the field's words are asked about. */
const DEBOUNCE_MS = 150;

interface Props {
  input: RefObject<HTMLInputElement | null>;
  listId: string;
}

export default function SearchSuggestions({ input, listId }: Props) {
  const navigate = useNavigate();
  const typesetHtml = useTypesetHtml();
  const [hits, setHits] = useState<SearchHit[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [asked, setAsked] = useState('');
  const optionId = (i: number) => `${listId}-${i}`;
  const { key } = useLocation();
  const shownAt = useRef(key);

  // The header's 搜索 panel (a <details>) closes on every navigation (not when these first appear).
  useEffect(() => {
    if (key === shownAt.current) return;
    shownAt.current = key;
    const panel = input.current?.closest('details');
    if (panel) panel.open = false;
  }, [input, key]);

  // The field becomes the combobox; the list is what it controls.
  useEffect(() => {
    const field = input.current;
    if (!field) return;
    field.setAttribute('role', 'combobox');
    field.setAttribute('aria-autocomplete', 'list');
    field.setAttribute('aria-controls', listId);
    return () => {
      for (const name of ['role', 'aria-autocomplete', 'aria-controls', 'aria-expanded', 'aria-activedescendant'])
        field.removeAttribute(name);
    };
  }, [input, listId]);

  useEffect(() => {
    const field = input.current;
    if (!field) return;
    field.setAttribute('aria-expanded', String(open && hits.length > 0));
    if (open && active >= 0) field.setAttribute('aria-activedescendant', optionId(active));
    else field.removeAttribute('aria-activedescendant');
  });

  // Asks about the words typed, after a pause; a newer question drops the older.
  useEffect(() => {
    const field = input.current;
    if (!field) return;
    let timer: number | undefined;
    let asking: AbortController | undefined;
    const ask = () => {
      const q = field.value.trim();
      window.clearTimeout(timer);
      asking?.abort();
      if (!q) {
        setHits([]);
        setOpen(false);
        return;
      }
      timer = window.setTimeout(() => {
        asking = new AbortController();
        browserContentApi.search({ q, pageSize: SHOWN }, asking.signal).then(
          (answer) => {
            setHits(answer.items);
            setAsked(q);
            setActive(-1);
            setOpen(true);
          },
          // A refused or failed question shows nothing: the form still searches.
          () => setHits([]),
        );
      }, DEBOUNCE_MS);
    };
    field.addEventListener('input', ask);
    if (field.value.trim()) ask();
    return () => {
      field.removeEventListener('input', ask);
      window.clearTimeout(timer);
      asking?.abort();
    };
  }, [input]);

  // The keys of the combobox.
  useEffect(() => {
    const field = input.current;
    if (!field) return;
    const onKey = (event: KeyboardEvent) => {
      const shown = open && hits.length > 0;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        if (hits.length === 0) return;
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setOpen(true);
        // From the field, Down takes the first and Up the last; within the list, they wrap around.
        setActive((i) => (!shown || i < 0 ? (step > 0 ? 0 : hits.length - 1) : (i + step + hits.length) % hits.length));
      } else if (event.key === 'Enter' && shown && active >= 0 && hits[active]) {
        event.preventDefault();
        setOpen(false);
        void navigate(hits[active].url);
      } else if (event.key === 'Escape' && shown) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      } else if (event.key === 'Escape') {
        // With the list closed, Escape closes the header's panel and goes back to its button.
        const panel = field.closest('details');
        if (!panel?.open) return;
        panel.open = false;
        panel.querySelector('summary')?.focus();
      }
    };
    const onBlur = () => setOpen(false);
    field.addEventListener('keydown', onKey);
    field.addEventListener('blur', onBlur);
    return () => {
      field.removeEventListener('keydown', onKey);
      field.removeEventListener('blur', onBlur);
    };
  }, [input, open, hits, active, navigate]);

  const shown = open && hits.length > 0;
  return (
    <>
      <ul id={listId} role="listbox" aria-label="搜索建议" className="search-listbox" hidden={!shown}>
        {hits.map((hit, i) => (
          <li
            key={hit.url}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            className="search-option"
            // Chosen with the pointer before the field's blur closes the list.
            onMouseDown={(e) => {
              e.preventDefault();
              setOpen(false);
              void navigate(hit.url);
            }}
          >
            <span className="search-option-title" dangerouslySetInnerHTML={{ __html: typesetHtml(hit.highlight.title) }} />
            <span className="search-option-kind">{SEARCH_KINDS[hit.kind]}</span>
          </li>
        ))}
      </ul>
      <p className="sr-only" role="status">
        {open && asked ? (hits.length > 0 ? `${hits.length} 条建议，按上下方向键选择，回车打开` : '没有建议，按回车搜索') : ''}
      </p>
    </>
  );
}
