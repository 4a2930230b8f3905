/**
 * The sentences of the page's main content, in reading order, each with the range of the page's
 * text it covers (so that it can be highlighted without changing the page: the app owns its DOM).
 * Text is taken block by block (a paragraph, a heading, a list item: whatever the stylesheet does
 * not draw inline), so that a sentence never runs from one block into the next; within a block it
 * is cut after each 。！？； and the like, and a sentence longer than MAX_CHARS again at a comma or
 * a pause, else at MAX_CHARS. Chromium's network voices stop an utterance after about 15 seconds
 * (docs/decisions/067): 60 characters of Chinese take about as long.
 */

export interface Sentence {
  /** What is spoken: the text, its runs of white space made one space, the characters that are not said left out. */
  text: string;
  range: Range;
}

/** What is not read: controls and navigation, what is hidden from everyone, and text only screen readers get. */
const SKIPPED = [
  'script',
  'style',
  'template',
  'noscript',
  'svg',
  'nav',
  'button',
  'form',
  'select',
  'textarea',
  '[role="tablist"]',
  '[aria-hidden="true"]',
  '[hidden]',
  '[inert]',
  '.sr-only',
].join(',');

const MAX_CHARS = 60;
/** A sentence ends after one of these, and the closing quotes or brackets that follow it. */
const SENTENCE_END = /[。！？；!?;…]+[”’」』）)]*/g;
/** Where a long sentence may be cut: after a comma, an enumeration comma, a colon. */
const PAUSE = /[，,、：:]/g;
/** Characters that are not said: word joiners, zero-width spaces and soft hyphens a typesetter may have written. */
const UNSAID = /[\u2060\u200b\u00ad]/g;
/** Something to say: a letter or a digit, in any script. */
const SAYABLE = /[\p{L}\p{N}]/u;

interface Piece {
  node: Text;
  /** Where the node's text starts in its block's text. */
  at: number;
}

/** A block's text and the text nodes it is made of. */
interface Block {
  text: string;
  pieces: Piece[];
}

function isInline(element: Element, styles: Map<Element, boolean>): boolean {
  let inline = styles.get(element);
  if (inline === undefined) {
    const display = getComputedStyle(element).display;
    inline = display.startsWith('inline') || display === 'contents' || display.startsWith('ruby');
    styles.set(element, inline);
  }
  return inline;
}

/** The nearest ancestor of `node` (at most `root`) drawn as a block. */
function blockOf(node: Text, root: Element, styles: Map<Element, boolean>): Element {
  let element = node.parentElement!;
  while (element !== root && isInline(element, styles)) element = element.parentElement!;
  return element;
}

function isRead(node: Text): boolean {
  const parent = node.parentElement;
  if (!parent || parent.closest(SKIPPED)) return false;
  return typeof parent.checkVisibility !== 'function' || parent.checkVisibility({ visibilityProperty: true });
}

/** The blocks of `root`'s text that is read, in document order. */
function blocksIn(root: Element): Block[] {
  const blocks: Block[] = [];
  const styles = new Map<Element, boolean>();
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let current: { element: Element; block: Block } | undefined;
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    if (!isRead(node)) continue;
    const element = blockOf(node, root, styles);
    if (current?.element !== element) {
      current = { element, block: { text: '', pieces: [] } };
      blocks.push(current.block);
    }
    current.block.pieces.push({ node, at: current.block.text.length });
    current.block.text += node.data;
  }
  return blocks;
}

/** Where each sentence of `text` starts and ends, long ones cut again. */
function spansOf(text: string): [number, number][] {
  const ends = [...text.matchAll(SENTENCE_END)].map((m) => m.index + m[0].length);
  if (ends.at(-1) !== text.length) ends.push(text.length);
  const spans: [number, number][] = [];
  let start = 0;
  for (const end of ends) {
    for (let from = start; from < end;) {
      const to = end - from <= MAX_CHARS ? end : cutAt(text, from);
      spans.push([from, to]);
      from = to;
    }
    start = end;
  }
  return spans;
}

/** Where a sentence longer than MAX_CHARS, from `from`, is cut: after its last pause within MAX_CHARS, else at MAX_CHARS. */
function cutAt(text: string, from: number): number {
  const window = text.slice(from, from + MAX_CHARS);
  const pauses = [...window.matchAll(PAUSE)];
  const last = pauses.at(-1);
  return from + (last && last.index > MAX_CHARS / 3 ? last.index + 1 : MAX_CHARS);
}

/** The text node and offset at `at` in a block's text (an end is placed in the node it ends). */
function pointAt(block: Block, at: number, isEnd: boolean): [Text, number] {
  let piece = block.pieces[0]!;
  for (const p of block.pieces) {
    if (p.at < at || (!isEnd && p.at === at)) piece = p;
    else break;
  }
  return [piece.node, Math.min(at - piece.at, piece.node.data.length)];
}

export function sentencesIn(root: Element): Sentence[] {
  const sentences: Sentence[] = [];
  for (const block of blocksIn(root)) {
    for (const [from, to] of spansOf(block.text)) {
      const raw = block.text.slice(from, to);
      if (!SAYABLE.test(raw)) continue;
      // The range covers the sentence without the white space around it.
      const start = from + (raw.length - raw.trimStart().length);
      const end = to - (raw.length - raw.trimEnd().length);
      const range = document.createRange();
      range.setStart(...pointAt(block, start, false));
      range.setEnd(...pointAt(block, end, true));
      sentences.push({ text: raw.trim().replace(/\s+/g, ' ').replace(UNSAID, ''), range });
    }
  }
  return sentences;
}
