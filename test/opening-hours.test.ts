/**
 * Opening hours read at fixed instants, in the hospital's own time zone (shared/opening-hours.ts):
 * Shanghai's every day 08:00–17:00, Sydney's weekdays 08:30–17:30 and Saturday mornings, across
 * a closing minute, a day it does not open, midnight and a change of daylight saving. The instants
 * are UTC, so the answers do not depend on the machine's own zone.
 */
import { describe, expect, it } from 'vitest';
import { demoContent } from '../server/embedded-api/demo-content/index.js';
import { clinicDays } from '../client/components/clinic-week.js';
import { hospitalTimeZone, nextOpenText, openingState, weekRows, zoneOffset, type OpeningHours } from '../shared/opening-hours.js';

const shanghai = demoContent.domesticHospitals[0]!;
const sydney = demoContent.internationalHospitals[0]!;
const SHANGHAI_HOURS = shanghai.openingHours as OpeningHours;
const SYDNEY_HOURS = sydney.openingHours as OpeningHours;
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('the hours in Shanghai (UTC+8), open every day 08:00–17:00', () => {
  const read = (utc: string) => openingState(SHANGHAI_HOURS, 'Asia/Shanghai', at(utc));

  it('is open at 16:59 and changes at 17:00, its closing minute', () => {
    const open = read('2026-12-07T08:59:00Z');
    expect(open).toMatchObject({ open: true, today: [{ opens: '08:00', closes: '17:00' }] });
    expect(iso(open.changesAt)).toBe('2026-12-07T09:00:00.000Z');
    const closed = read('2026-12-07T09:00:00Z');
    expect(closed.open).toBe(false);
    expect(closed.nextOpen).toEqual({ inDays: 1, day: 'Tu', opens: '08:00' });
    expect(nextOpenText(closed.nextOpen!)).toBe('明日 08:00');
    // Then nothing changes until midnight, when 今日 is another day.
    expect(iso(closed.changesAt)).toBe('2026-12-07T16:00:00.000Z');
  });

  it('before it opens, it opens today; at 08:00 it is open', () => {
    const early = read('2026-12-07T23:30:00Z'); // 07:30 on Tuesday
    expect(early.open).toBe(false);
    expect(nextOpenText(early.nextOpen!)).toBe('今日 08:00');
    expect(iso(early.changesAt)).toBe('2026-12-08T00:00:00.000Z');
    expect(read('2026-12-08T00:00:00Z').open).toBe(true);
  });

  it('a hospital in China without a time zone of its own is on Shanghai time; one abroad without one has no state', () => {
    expect(hospitalTimeZone({}, false)).toBe('Asia/Shanghai');
    expect(hospitalTimeZone({}, true)).toBeUndefined();
    expect(hospitalTimeZone(sydney, true)).toBe('Australia/Sydney');
  });
});

describe('the hours in Sydney (UTC+10, UTC+11 in summer), weekdays 08:30–17:30 and Saturday 09:00–13:00', () => {
  const read = (utc: string) => openingState(SYDNEY_HOURS, 'Australia/Sydney', at(utc));

  it('on a Saturday is open until 13:00, then closed until Monday', () => {
    expect(read('2026-12-05T01:59:00Z')).toMatchObject({ open: true, today: [{ opens: '09:00', closes: '13:00' }] }); // 12:59 AEDT
    const after = read('2026-12-05T02:00:00Z');
    expect(after.open).toBe(false);
    expect(after.nextOpen).toEqual({ inDays: 2, day: 'Mo', opens: '08:30' });
    expect(nextOpenText(after.nextOpen!)).toBe('周一 08:30');
  });

  it('on a Sunday, a day it does not open, has no hours today and changes only at midnight', () => {
    const sunday = read('2026-12-06T01:00:00Z'); // 12:00 AEDT
    expect(sunday).toMatchObject({ open: false, today: [], nextOpen: { inDays: 1, day: 'Mo', opens: '08:30' } });
    expect(iso(sunday.changesAt)).toBe('2026-12-06T13:00:00.000Z'); // Monday 00:00 AEDT
  });

  it('the same instant is another day and hour in Shanghai', () => {
    // Monday 08:00 in Shanghai is Monday 11:00 in Sydney: both open.
    expect(openingState(SHANGHAI_HOURS, 'Asia/Shanghai', at('2026-12-07T00:00:00Z')).open).toBe(true);
    expect(read('2026-12-07T00:00:00Z').open).toBe(true);
    // Monday 18:00 in Sydney (closed) is Monday 15:00 in Shanghai (open).
    expect(read('2026-12-07T07:00:00Z').open).toBe(false);
    expect(openingState(SHANGHAI_HOURS, 'Asia/Shanghai', at('2026-12-07T07:00:00Z')).open).toBe(true);
  });

  it('finds midnight across the night daylight saving begins (4 October 2026: 02:00 AEST becomes 03:00 AEDT)', () => {
    const night = read('2026-10-03T15:00:00Z'); // Sunday 01:00 AEST
    expect(iso(night.changesAt)).toBe('2026-10-04T13:00:00.000Z'); // Monday 00:00 AEDT
    const monday = read('2026-10-04T13:00:00Z');
    expect(iso(monday.changesAt)).toBe('2026-10-04T21:30:00.000Z'); // 08:30 AEDT
  });
});

describe("a zone's offset carried by the page, read without Intl", () => {
  const DAY = 24 * 3600 * 1000;

  it('Shanghai keeps UTC+8: the whole stretch looked at, each way', () => {
    const now = at('2026-12-07T03:21:17.250Z');
    const known = zoneOffset('Asia/Shanghai', now);
    expect(known).toEqual({ offsetMs: 8 * 3600 * 1000, from: now - 32 * DAY, until: now + 32 * DAY });
    // Read from the offset it is given: one an hour ahead has 16:30 as 17:30, after closing.
    const halfPastFour = at('2026-12-07T08:30:00Z');
    expect(openingState(SHANGHAI_HOURS, 'Asia/Shanghai', halfPastFour, known).open).toBe(true);
    expect(openingState(SHANGHAI_HOURS, 'Asia/Shanghai', halfPastFour, { ...known, offsetMs: 9 * 3600 * 1000 }).open).toBe(false);
  });

  it("Sydney's stretch ends on the second daylight saving begins, and the next begins there", () => {
    const before = zoneOffset('Australia/Sydney', at('2026-09-20T00:00:00Z'));
    expect(before.offsetMs).toBe(10 * 3600 * 1000);
    expect(iso(before.until)).toBe('2026-10-03T16:00:00.000Z'); // 02:00 AEST, which becomes 03:00 AEDT
    const after = zoneOffset('Australia/Sydney', at('2026-10-10T00:00:00Z'));
    expect(after.offsetMs).toBe(11 * 3600 * 1000);
    expect(iso(after.from)).toBe('2026-10-03T16:00:00.000Z');
  });

  it('the state read with it is the state read with Intl, inside its stretch and past it', () => {
    for (const [zone, hours, start] of [
      ['Australia/Sydney', SYDNEY_HOURS, '2026-10-01T00:00:00Z'],
      ['Asia/Shanghai', SHANGHAI_HOURS, '2026-12-05T00:00:00Z'],
    ] as const) {
      const known = zoneOffset(zone, at(start));
      // Every 7 minutes for five days: across Sydney's change, every opening and closing minute's neighbours, midnights.
      for (let t = at(start); t < at(start) + 5 * DAY; t += 7 * 60 * 1000)
        expect(openingState(hours, zone, t, known), `${zone} ${iso(t)}`).toEqual(openingState(hours, zone, t));
    }
  });
});

describe('the week as a visitor reads it', () => {
  it('days with the same hours are one row, a day it does not open says 休息', () => {
    expect(weekRows(SHANGHAI_HOURS)).toEqual([{ days: '周一至周日', hours: '08:00–17:00' }]);
    expect(weekRows(SYDNEY_HOURS)).toEqual([
      { days: '周一至周五', hours: '08:30–17:30' },
      { days: '周六', hours: '09:00–13:00' },
      { days: '周日', hours: '休息' },
    ]);
    const split: OpeningHours = [
      { days: ['Mo', 'We'], opens: '08:00', closes: '12:00' },
      { days: ['Mo'], opens: '13:30', closes: '17:00' },
    ];
    expect(weekRows(split)[0]).toEqual({ days: '周一', hours: '08:00–12:00、13:30–17:00' });
    // Between its two spans it is closed, and it opens again today.
    const lunch = openingState(split, 'Asia/Shanghai', at('2026-12-07T04:30:00Z')); // Monday 12:30
    expect(lunch).toMatchObject({ open: false, nextOpen: { inDays: 0, opens: '13:30' } });
  });

  it("a doctor's clinic days, Monday first, each its half-day and clinic; an entry written otherwise last, as written", () => {
    expect(clinicDays(['周五上午 特需门诊', '周一上午 专家门诊', '每月第一周 义诊', '周日全天 手术'])).toEqual([
      { day: '周一', part: '上午', clinic: '专家门诊', order: expect.any(Number) },
      { day: '周五', part: '上午', clinic: '特需门诊', order: expect.any(Number) },
      { day: '周日', part: '全天', clinic: '手术', order: expect.any(Number) },
      { day: '', part: '', clinic: '每月第一周 义诊', order: expect.any(Number) },
    ]);
  });
});
