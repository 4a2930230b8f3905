/**
 * Opening hours as a tidy list, from the content's one line of text ("门诊时间：周一至周日
 * 8:00-17:00（法定节假日另行通知）；咨询热线 8:00-20:00"): one row per part (split at ；), its name
 * and its hours in columns, a note in brackets on a line of its own. A part with no name (or whose
 * first words name days) is given `name`.
 */
import { Typeset } from '../typeset/typeset.js';

/** A part's name: its first words, before a ： or a space (咨询热线 8:00-20:00). */
const NAMED = /^\s*(\p{Script=Han}{2,8})\s*(?:[：:]|\s)\s*(.+)$/u;
/** Words naming days, which belong to the hours, not a name (每天 8:00-20:00). */
const DAYS = /^(每|周|星期|工作日|节假日|全年|全天)/;

/** A part of the hours: its name (before ：), its hours, and the note in brackets after them. */
function rowsOf(text: string, name: string) {
  return text
    .split(/[；;]/)
    .filter((part) => part.trim())
    .map((part) => {
      const named = NAMED.exec(part);
      const [label, rest] = named && !DAYS.test(named[1]!) ? [named[1]!, named[2]!] : [name, part.trim()];
      const [, hours, note] = /^(.*?)\s*[（(]([^）)]+)[）)]\s*$/.exec(rest) ?? [undefined, rest, undefined];
      return { label, hours, note };
    });
}

export function Schedule({ text, name }: { text: string; name: string }) {
  return (
    <dl className="schedule">
      {rowsOf(text, name).map((row) => (
        <div key={row.label + row.hours}>
          <dt>{row.label}</dt>
          <dd>
            <Typeset text={row.hours} />
            {row.note ? <span className="schedule-note">{row.note}</span> : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}
