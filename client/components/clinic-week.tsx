/**
 * A doctor's clinic days (the content's `schedule`, one half-day each: 周一上午 专家门诊) as a compact
 * week: one tile per half-day, Monday first, its day and part of the day over its clinic. An entry
 * written otherwise is shown as written, after the others.
 */
import { Typeset } from '../typeset/typeset.js';

const ENTRY = /^\s*(周[一二三四五六日天])\s*(上午|下午|全天|晚上)?\s*(.*)$/;
const WEEK = '一二三四五六日';

interface ClinicDay {
  day: string;
  part: string;
  clinic: string;
  order: number;
}

export function clinicDays(schedule: readonly string[]): ClinicDay[] {
  return schedule
    .map((entry, i) => {
      const m = ENTRY.exec(entry);
      if (!m) return { day: '', part: '', clinic: entry.trim(), order: 100 + i };
      const day = m[1]!.replace('天', '日');
      return { day, part: m[2] ?? '', clinic: m[3]!.trim(), order: WEEK.indexOf(day[1]!) * 10 + i / 100 };
    })
    .sort((a, b) => a.order - b.order);
}

export function ClinicWeek({ schedule, className = '' }: { schedule: readonly string[] | undefined; className?: string }) {
  if (!schedule?.length) return null;
  return (
    <ul className={`clinic-week ${className}`.trim()} aria-label="出诊时间">
      {clinicDays(schedule).map((d) => (
        <li key={`${d.order}`}>
          {d.day ? (
            <span className="clinic-when">
              {d.day}
              {d.part}
            </span>
          ) : null}
          {d.clinic ? (
            <span className="clinic-kind">
              <Typeset text={d.clinic} />
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
