/**
 * Reads sentences aloud with the browser's speech synthesis, one utterance each, in zh-CN
 * (docs/decisions/067): the sentence being read is highlighted (the CSS Custom Highlight API, so
 * the page's DOM is not touched) and scrolled into view. Each utterance has a watchdog: Chromium's
 * network voices may stop speaking without ever firing `end`, and a sentence still unfinished well
 * after it should have been is given up and the next one read. Pausing cancels the sentence and
 * resuming reads it again from its start, which works alike on every engine (a paused network
 * voice of Chromium's may never resume).
 */
import { scrollContainer } from '../scroll.js';
import type { Sentence } from './sentences.js';

export type ReaderState = 'reading' | 'paused' | 'done' | 'failed';

/** The name the highlight is registered under (styled by ::highlight(read-aloud) in a11y-toolbar.css). */
const HIGHLIGHT = 'read-aloud';
/** A little slower than the voice's own pace: most of the site's visitors are older. */
const RATE = 0.9;
/** How long a sentence may take before it is given up: well past a slow voice's pace. */
const watchdogMs = (text: string) => 3_000 + text.length * 400;

export class Reader {
  #index = 0;
  #state: ReaderState = 'reading';
  /** The utterance being spoken; events of any other (cancelled) one are ignored. */
  #utterance: SpeechSynthesisUtterance | undefined;
  #watchdog: ReturnType<typeof setTimeout> | undefined;
  readonly #listeners = new Set<() => void>();

  constructor(
    private readonly sentences: readonly Sentence[],
    private readonly voice: SpeechSynthesisVoice,
  ) {}

  get state(): ReaderState {
    return this.#state;
  }

  /** The sentence being read (1-based), and how many there are. */
  get position(): { at: number; of: number } {
    return { at: Math.min(this.#index + 1, this.sentences.length), of: this.sentences.length };
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  start(): void {
    // Whatever another page or tab left queued is not read before this.
    speechSynthesis.cancel();
    this.#speak(0);
  }

  pause(): void {
    if (this.#state !== 'reading') return;
    this.#silence();
    this.#set('paused');
  }

  resume(): void {
    if (this.#state === 'paused') this.#speak(this.#index);
  }

  stop(): void {
    this.#silence();
    if ('highlights' in CSS) CSS.highlights.delete(HIGHLIGHT);
  }

  #set(state: ReaderState): void {
    this.#state = state;
    for (const listener of this.#listeners) listener();
  }

  #silence(): void {
    this.#utterance = undefined;
    clearTimeout(this.#watchdog);
    speechSynthesis.cancel();
  }

  #speak(index: number): void {
    const sentence = this.sentences[index];
    if (!sentence) {
      this.stop();
      this.#set('done');
      return;
    }
    this.#index = index;
    show(sentence.range);
    const utterance = new SpeechSynthesisUtterance(sentence.text);
    utterance.lang = 'zh-CN';
    utterance.voice = this.voice;
    utterance.rate = RATE;
    this.#utterance = utterance;
    const next = () => {
      if (this.#utterance !== utterance) return;
      clearTimeout(this.#watchdog);
      this.#speak(index + 1);
    };
    utterance.onend = next;
    utterance.onerror = (event) => {
      // A cancelled utterance (pause, stop, the watchdog) says so; that is not a failure.
      if (this.#utterance !== utterance || event.error === 'interrupted' || event.error === 'canceled') return;
      console.warn(`read aloud: the voice failed (${event.error})`);
      this.stop();
      this.#set('failed');
    };
    speechSynthesis.speak(utterance);
    this.#watchdog = setTimeout(() => {
      if (this.#utterance !== utterance) return;
      speechSynthesis.cancel();
      next();
    }, watchdogMs(sentence.text));
    this.#set('reading');
  }
}

/** Highlights the sentence and brings it into view, clear of the fixed header and the reading bar. */
function show(range: Range): void {
  if ('highlights' in CSS) CSS.highlights.set(HIGHLIGHT, new Highlight(range));
  const rect = range.getBoundingClientRect();
  const top = document.querySelector('.site-header')?.getBoundingClientRect().bottom ?? 0;
  const bottom = document.querySelector('.read-aloud-bar')?.getBoundingClientRect().top ?? window.innerHeight;
  if (rect.top >= top && rect.bottom <= bottom) return;
  const scroller = scrollContainer();
  // The root scrolls in its own (scaled) px in the transform mode: the window's px divided by the scale.
  const scale = scroller instanceof Window ? 1 : scroller.getBoundingClientRect().height / scroller.clientHeight || 1;
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  // A third of the way down the free part of the window: what follows is in view too.
  scroller.scrollBy({ top: (rect.top - top - (bottom - top) / 3) / scale, behavior: reduce ? 'auto' : 'smooth' });
}
