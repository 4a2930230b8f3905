/** A section's heading block: a small eyebrow line, the h2 and an optional lead. */
import { Typeset } from '../typeset/typeset.js';

export function SectionHead({ eyebrow, title, lead, id }: { eyebrow?: string; title: string; lead?: string; id?: string }) {
  return (
    <div className="section-head">
      {eyebrow ? <p className="eyebrow">{eyebrow}</p> : null}
      <h2 id={id}>
        <Typeset text={title} />
      </h2>
      {lead ? (
        <p className="section-lead">
          <Typeset text={lead} />
        </p>
      ) : null}
    </div>
  );
}
