/**
 * 语音朗读, loaded when 辅助浏览's list is first shown (client/components/a11y-toolbar.tsx): whether
 * the browser has a Chinese voice, and reading the page's main content aloud, sentence by sentence
 * (reader.ts), with the reading bar (reading-bar.tsx) in a root of its own at the end of <body>,
 * so that it outlives the menu or list it was started from.
 */
import { createElement } from 'react';
import type { Root } from 'react-dom/client';
import { Reader } from './reader.js';
import { ReadingBar } from './reading-bar.js';
import { sentencesIn } from './sentences.js';

/** Mandarin in simplified Chinese, as browsers name it: zh-CN, zh_CN, zh-Hans(-CN), cmn-Hans-CN, or plain zh. */
const CHINESE = /^(?:zh|cmn)(?:$|[-_](?:cn|hans)(?:$|[-_#]))/i;

/** The voice to read with: a Chinese one on the device first (no network, and no 15-second limit), else any Chinese one. */
function chineseVoice(): SpeechSynthesisVoice | undefined {
  const voices = speechSynthesis.getVoices().filter((v) => CHINESE.test(v.lang));
  return voices.find((v) => v.localService) ?? voices[0];
}

const speechAvailable = () => typeof speechSynthesis !== 'undefined' && typeof SpeechSynthesisUtterance === 'function';

/**
 * Calls `onChange` with whether a Chinese voice exists, now and whenever the browser's list of
 * voices changes (most browsers fill it after the page asks: `voiceschanged`); returns the unwatch.
 */
export function watchChineseVoice(onChange: (found: boolean) => void): () => void {
  if (!speechAvailable()) {
    onChange(false);
    return () => {};
  }
  const update = () => onChange(chineseVoice() !== undefined);
  update();
  speechSynthesis.addEventListener('voiceschanged', update);
  return () => speechSynthesis.removeEventListener('voiceschanged', update);
}

let reading: { reader: Reader; host: HTMLElement; from: HTMLElement; root?: Root } | undefined;

/**
 * Reads the page's main content from its start; `from` (the button pressed) gets the focus back
 * when reading ends. The first sentence is spoken at once, in the click's own task: some browsers
 * speak only in answer to the visitor's action.
 */
export function startReading(from: HTMLElement): void {
  stopReading();
  const main = document.querySelector('main');
  const voice = speechAvailable() ? chineseVoice() : undefined;
  if (!main || !voice) return;
  const reader = new Reader(sentencesIn(main), voice);
  const host = document.createElement('div');
  host.className = 'read-aloud-host';
  document.body.append(host);
  const current = { reader, host, from } as NonNullable<typeof reading>;
  reading = current;
  // Read to the end: the bar goes, and the focus back where reading was started.
  reader.subscribe(() => {
    if (reader.state === 'done' && reading === current) stopReading();
  });
  reader.start();
  // React DOM's client is the entry's (client/entry-client.tsx, which imports it dynamically too).
  void import('react-dom/client').then(({ createRoot }) => {
    if (reading !== current) return;
    current.root = createRoot(host);
    current.root.render(createElement(ReadingBar, { reader, onStop: stopReading }));
  });
}

/**
 * Stops reading and takes the bar away. The focus, if it was in the bar, goes back to where
 * reading was started: the button, or the 辅助浏览 button of the list that closed over it, or the
 * main content.
 */
export function stopReading(): void {
  if (!reading) return;
  const { reader, root, host, from } = reading;
  reading = undefined;
  const hadFocus = host.contains(document.activeElement);
  reader.stop();
  root?.unmount();
  host.remove();
  if (!hadFocus) return;
  const back = [from, from.closest('details')?.querySelector('summary'), document.querySelector('main')];
  back.find((el): el is HTMLElement => el instanceof HTMLElement && el.isConnected && el.checkVisibility())?.focus();
}
