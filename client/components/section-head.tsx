/** A section's heading block: a small eyebrow line, the h2 and an optional lead. */
import { typeset } from '../typeset.js';

export function SectionHead({ eyebrow, title, lead, id }: { eyebrow?: string; title: string; lead?: string; id?: string }) {
  return (
    <div className="section-head">
      {eyebrow ? <p className="eyebrow">{eyebrow}</p> : null}
      <h2 id={id}>{typeset(title)}</h2>
      {lead ? <p className="section-lead">{typeset(lead)}</p> : null}
    </div>
  );
}
