/**
 * A hospital's opening hours: today's, whether it is open now (正在营业 / 已休息) in the hospital's own
 * time zone, and the week. The first render reads the hours at the instant the page was drawn (the
 * server's render and the browser's hydration agree); after hydration, at the browser's own clock,
 * and again at each change (docs/decisions/062).
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { OpeningHours as Hours, ZoneOffset } from '../../shared/opening-hours.js';
import { nextOpenText, openingState, spanText, weekRows } from '../../shared/opening-hours.js';

/** Longest a timer may wait (setTimeout's limit); the state is read again then. */
const TIMER_MAX_MS = 2 ** 31 - 1;
const CHANGE_MARGIN_MS = 250;

/**
 * The hours read at `drawnAt` first (as the server did), then at the browser's clock as soon as it
 * has hydrated, and again each time they change: a timer for the next change, armed anew after
 * every reading.
 */
function useOpeningState(hours: Hours, timeZone: string | undefined, drawnAt: number, zoneOffset: ZoneOffset | undefined) {
  const [now, setNow] = useState(drawnAt);
  const read = useRef(false);
  const state = timeZone ? openingState(hours, timeZone, now, zoneOffset) : undefined;
  const changesAt = state?.changesAt;
  useEffect(() => {
    if (changesAt === undefined) return;
    // A little past the change: a timer may fire a moment early.
    const wait = read.current ? Math.min(TIMER_MAX_MS, Math.max(0, changesAt - Date.now()) + CHANGE_MARGIN_MS) : 0;
    const timer = setTimeout(() => {
      read.current = true;
      setNow(Date.now());
    }, wait);
    return () => clearTimeout(timer);
  }, [changesAt, now]);
  return state;
}

interface OpeningHoursProps {
  hours: Hours;
  /** Without one (a hospital abroad whose content names none) the week is shown, not whether it is open. */
  timeZone: string | undefined;
  /** When the page was drawn (epoch ms). */
  drawnAt: number;
  /** The zone's offset around `drawnAt` (the page's data), so that its clock is read without Intl. */
  zoneOffset: ZoneOffset | undefined;
  /** The city whose clock the hours are in, for a hospital abroad (以上为悉尼当地时间). */
  localTo?: string | undefined;
  level: 2 | 3;
}

export function OpeningHours({ hours, timeZone, drawnAt, zoneOffset, localTo, level }: OpeningHoursProps) {
  const id = useId();
  const Heading = `h${level}` as const;
  const state = useOpeningState(hours, timeZone, drawnAt, zoneOffset);
  return (
    <section className="card hospital-hours" aria-labelledby={id}>
      <Heading id={id}>门诊时间</Heading>
      {state ? (
        <p className="hours-now">
          <span className="hours-state" data-open={state.open}>
            {state.open ? '正在营业' : '已休息'}
          </span>
          <span className="hours-today">今日 {state.today.length > 0 ? state.today.map(spanText).join('、') : '休息'}</span>
          {!state.open && state.nextOpen ? <span className="hours-next">{nextOpenText(state.nextOpen)} 开诊</span> : null}
        </p>
      ) : null}
      <dl className="hours-week">
        {weekRows(hours).map((row) => (
          <div key={row.days}>
            <dt>{row.days}</dt>
            <dd>{row.hours}</dd>
          </div>
        ))}
      </dl>
      {localTo ? <p className="hours-local">以上为{localTo}当地时间</p> : null}
    </section>
  );
}
