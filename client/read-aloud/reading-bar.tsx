/**
 * The bar at the bottom of the window while the page is read aloud: what is happening, which
 * sentence, and the buttons to pause or resume (one button, which keeps the focus) and to stop,
 * reached by Tab like any other; the first has the focus when reading starts, and Escape in the
 * bar stops.
 */
import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { Reader } from './reader.js';

const STATUS = { reading: '正在朗读', paused: '已暂停', done: '朗读完毕', failed: '朗读出错，请稍后再试' } as const;

export function ReadingBar({ reader, onStop }: { reader: Reader; onStop: () => void }) {
  const subscribe = (listener: () => void) => reader.subscribe(listener);
  const state = useSyncExternalStore(subscribe, () => reader.state);
  const at = useSyncExternalStore(subscribe, () => reader.position.at);
  const bar = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const stop = useRef<HTMLButtonElement>(null);
  useEffect(() => toggle.current?.focus(), []);
  // The page makes room at its end for the bar as it is drawn (it wraps on a narrow window and in
  // the large text): the last lines can be scrolled clear of it, and so can a focused control.
  useEffect(() => {
    const el = bar.current;
    if (!el) return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => root.style.setProperty('--read-aloud-room', `${el.offsetHeight}px`));
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--read-aloud-room');
    };
  }, []);
  const going = state === 'reading' || state === 'paused';
  // The pause button goes with the reading: the focus it had (now nowhere) moves to the one left.
  useEffect(() => {
    if (!going && document.activeElement === document.body) stop.current?.focus();
  }, [going]);
  return (
    <div
      ref={bar}
      className="read-aloud-bar"
      role="region"
      aria-label="语音朗读"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onStop();
      }}
    >
      <p className="read-aloud-status">
        {/* Said when the state changes, not at every sentence. */}
        <span aria-live="polite">{STATUS[state]}</span>
        {going ? (
          <span className="read-aloud-count">
            第 {at} 句，共 {reader.position.of} 句
          </span>
        ) : null}
      </p>
      <div className="read-aloud-actions">
        {going ? (
          <button
            ref={toggle}
            type="button"
            className="btn btn-primary"
            onClick={() => (state === 'paused' ? reader.resume() : reader.pause())}
          >
            {state === 'paused' ? '继续' : '暂停'}
          </button>
        ) : null}
        <button ref={stop} type="button" className="btn btn-ghost" onClick={onStop}>
          {going ? '停止' : '关闭'}
        </button>
      </div>
    </div>
  );
}
