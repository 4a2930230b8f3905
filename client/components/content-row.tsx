/**
 * A content item as a compact row: date block, title and summary (news columns, hospital news).
 * A module of its own: the home page's news columns need it, and nothing else of the cards.
 */
import { Link } from 'react-router';
import type { ContentSummary } from '../../shared/contract/entities.js';
import { contentHref } from '../../shared/site/href.js';
import { Typeset } from '../typeset/typeset.js';

export function ContentRow({ item }: { item: ContentSummary }) {
  const [year, month, day] = item.date?.split('-') ?? [];
  return (
    <li className="content-row">
      {item.date ? (
        <time className="row-date" dateTime={item.date}>
          <span className="row-day">{day}</span>
          <span className="row-ym">
            {year}-{month}
          </span>
        </time>
      ) : null}
      <div className="row-body">
        <Link to={contentHref(item)} className="row-title stretched-link">
          <Typeset text={item.title} />
        </Link>
        {item.summary ? (
          <p className="row-text">
            <Typeset text={item.summary} />
          </p>
        ) : null}
      </div>
    </li>
  );
}
