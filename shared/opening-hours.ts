/**
 * A hospital's opening hours (the content's `openingHours`) read at an instant, in the hospital's
 * own time zone: today's hours, whether it is open, when it next opens, and the instant any of
 * that next changes (an hour it opens or closes, or midnight). Pure, so that the server computes
 * it for the page it renders and the browser computes the same from the same instant when it
 * hydrates, then again from its own clock (docs/decisions/062).
 *
 * Reading a zone's clock takes an `Intl.DateTimeFormat`, whose making loads the zone's rules: on a
 * phone, the longest piece of a hospital page's hydration. The page carries the zone's offset
 * from UTC instead, and the stretch of time it holds for (`ZoneOffset`, found on the server): read
 * within it, the clock is plain arithmetic.
 */
import type { Hospital } from './contract/entities.js';

export type OpeningHours = NonNullable<Hospital['openingHours']>;
type Weekday = OpeningHours[number]['days'][number];

const WEEK: readonly Weekday[] = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'];
const WEEKDAY_NAMES: Readonly<Record<Weekday, string>> = {
  Mo: '周一',
  Tu: '周二',
  We: '周三',
  Th: '周四',
  Fr: '周五',
  Sa: '周六',
  Su: '周日',
};

/** China keeps one clock: a hospital there whose content names no time zone is on it. */
const CHINA_TIME_ZONE = 'Asia/Shanghai';

/** The time zone a hospital's hours are read in; none for one abroad whose content names none (its hours are shown, not its state). */
export function hospitalTimeZone(hospital: Pick<Hospital, 'timeZone'>, abroad: boolean): string | undefined {
  return hospital.timeZone ?? (abroad ? undefined : CHINA_TIME_ZONE);
}

/** Opening and closing, `HH:MM`; a span that closes at or before it opens is open until midnight. */
export interface Span {
  opens: string;
  closes: string;
}

export interface OpeningState {
  /** Today's hours, earliest first; none when it does not open today. */
  today: Span[];
  open: boolean;
  /** When closed: when it next opens, `inDays` from today (0 today, 1 tomorrow); none when it never does. */
  nextOpen?: { inDays: number; day: Weekday; opens: string } | undefined;
  /** The instant (epoch ms) at which any of the above next changes. */
  changesAt: number;
}

const DAY_S = 24 * 3600;
const seconds = (time: string) => Number(time.slice(0, 2)) * 3600 + Number(time.slice(3, 5)) * 60;
const closingS = (span: Span) => (seconds(span.closes) > seconds(span.opens) ? seconds(span.closes) : DAY_S);

/** The spans of a day, earliest first. */
function spansOn(hours: OpeningHours, day: Weekday): Span[] {
  return hours
    .filter((h) => h.days.includes(day))
    .map(({ opens, closes }) => ({ opens, closes }))
    .sort((a, b) => seconds(a.opens) - seconds(b.opens));
}

/** One formatter per time zone (few: the content's hospitals'), kept: making one costs far more than using it. */
const FORMATS = new Map<string, Intl.DateTimeFormat>();
const FORMATS_MAX = 32;

interface WallClock {
  year: number;
  month: number;
  day: number;
  weekday: Weekday;
  /** Seconds since the day began. */
  second: number;
}

/** A zone's clock is `offsetMs` ahead of UTC from `from` until `until` (epoch ms; the change, or as far as was looked). */
export interface ZoneOffset {
  offsetMs: number;
  from: number;
  until: number;
}

const UTC_WEEK: readonly Weekday[] = ['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'];
const DAY_MS = DAY_S * 1000;

/** The wall clock `local` ms after the epoch of a zone's own calendar (the instant plus its offset). */
function clockOf(local: number): WallClock {
  const date = new Date(local);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    weekday: UTC_WEEK[date.getUTCDay()]!,
    second: Math.floor((((local % DAY_MS) + DAY_MS) % DAY_MS) / 1000),
  };
}

function wallClock(timeZone: string, at: number, known?: ZoneOffset): WallClock {
  if (known && known.from <= at && at < known.until) return clockOf(at + known.offsetMs);
  let format = FORMATS.get(timeZone);
  if (!format) {
    if (FORMATS.size >= FORMATS_MAX) FORMATS.clear();
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      weekday: 'short',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    FORMATS.set(timeZone, format);
  }
  const part: Record<string, string> = {};
  for (const { type, value } of format.formatToParts(at)) part[type] = value;
  return {
    year: Number(part.year),
    month: Number(part.month),
    day: Number(part.day),
    weekday: part.weekday!.slice(0, 2) as Weekday,
    second: Number(part.hour) * 3600 + Number(part.minute) * 60 + Number(part.second),
  };
}

/** How far the zone's clock is ahead of UTC at `at`, in ms. */
function offsetAt(timeZone: string, at: number, known?: ZoneOffset): number {
  const c = wallClock(timeZone, at, known);
  return Date.UTC(c.year, c.month - 1, c.day) + c.second * 1000 - (at - (((at % 1000) + 1000) % 1000));
}

/** How far a zone's offset is looked for its change, each way: longer than a page stays open. */
const OFFSET_SPAN_MS = 32 * DAY_MS;

/**
 * The zone's offset at `at` and the stretch around it it holds for: stepped a day at a time each
 * way, up to OFFSET_SPAN_MS, then narrowed to the second where it changes (zones change on whole
 * seconds).
 */
export function zoneOffset(timeZone: string, at: number): ZoneOffset {
  const offsetMs = offsetAt(timeZone, at);
  const edge = (way: 1 | -1) => {
    let held = at;
    for (let step = 1; step * DAY_MS <= OFFSET_SPAN_MS; step++) {
      const next = at + way * step * DAY_MS;
      if (offsetAt(timeZone, next) !== offsetMs) {
        // `held` has the offset, `next` has not: halve the gap down to a second, in which lies
        // the one whole second where it changes.
        let other = next;
        while (Math.abs(other - held) > 1000) {
          const middle = Math.floor((held + other) / 2);
          if (offsetAt(timeZone, middle) === offsetMs) held = middle;
          else other = middle;
        }
        return Math.floor((way === 1 ? held : other) / 1000) * 1000 + 1000;
      }
      held = next;
    }
    return held;
  };
  return { offsetMs, from: edge(-1), until: edge(1) };
}

/** The instant the zone's clock reads `second` on the day `clock` names (past the day's end: the next day's). */
function instantOf(timeZone: string, clock: WallClock, second: number, at: number, known?: ZoneOffset): number {
  const wall = Date.UTC(clock.year, clock.month - 1, clock.day) + second * 1000;
  // The offset at the instant itself, which differs from now's across a change of daylight saving.
  const guess = wall - offsetAt(timeZone, at, known);
  return Math.max(at + 1, wall - offsetAt(timeZone, guess, known));
}

/** The hours at `at`, in `timeZone`; `known`: the zone's offset over a stretch, read without Intl within it. */
export function openingState(hours: OpeningHours, timeZone: string, at: number, known?: ZoneOffset): OpeningState {
  const clock = wallClock(timeZone, at, known);
  const today = spansOn(hours, clock.weekday);
  const now = clock.second;
  const open = today.some((s) => seconds(s.opens) <= now && now < closingS(s));
  const boundaries = today.flatMap((s) => [seconds(s.opens), closingS(s)]).filter((b) => b > now);
  const changesAt = instantOf(timeZone, clock, Math.min(DAY_S, ...boundaries), at, known);
  return { today, open, nextOpen: open ? undefined : nextOpening(hours, clock), changesAt };
}

function nextOpening(hours: OpeningHours, clock: WallClock): OpeningState['nextOpen'] {
  const later = spansOn(hours, clock.weekday).find((s) => seconds(s.opens) > clock.second);
  if (later) return { inDays: 0, day: clock.weekday, opens: later.opens };
  const index = WEEK.indexOf(clock.weekday);
  for (let inDays = 1; inDays <= 7; inDays++) {
    const day = WEEK[(index + inDays) % 7]!;
    const first = spansOn(hours, day)[0];
    if (first) return { inDays, day, opens: first.opens };
  }
  return undefined;
}

/** A span as drawn: 08:00–17:00. */
export const spanText = (span: Span) => `${span.opens}–${span.closes}`;

/** When it next opens, as a visitor reads it: 今日 13:30, 明日 08:00, 周一 08:30. */
export function nextOpenText(next: NonNullable<OpeningState['nextOpen']>): string {
  const when = next.inDays === 0 ? '今日' : next.inDays === 1 ? '明日' : WEEKDAY_NAMES[next.day];
  return `${when} ${next.opens}`;
}

/** The week as rows: days with the same hours side by side named as one (周一至周五), a day it does not open as 休息. */
export function weekRows(hours: OpeningHours): { days: string; hours: string }[] {
  const text = (day: Weekday) => spansOn(hours, day).map(spanText).join('、') || '休息';
  const rows: { first: Weekday; last: Weekday; hours: string }[] = [];
  for (const day of WEEK) {
    const row = rows.at(-1);
    if (row && row.hours === text(day)) row.last = day;
    else rows.push({ first: day, last: day, hours: text(day) });
  }
  return rows.map((r) => ({
    days: r.first === r.last ? WEEKDAY_NAMES[r.first] : `${WEEKDAY_NAMES[r.first]}至${WEEKDAY_NAMES[r.last]}`,
    hours: r.hours,
  }));
}
