/** A titled list on a page: its heading and count, a filter row, then the items, or the empty state when there are none. */
import type { ReactNode } from 'react';
import { EmptyState } from './content-card.js';

interface ListBlockProps {
  title: string;
  /** The heading's id, for the section it labels. */
  titleId?: string;
  /** Beside the heading: a count (共 9 篇), or a link. */
  aside?: ReactNode;
  /** Between the heading and the items: a row of filters. */
  filters?: ReactNode;
  empty: boolean;
  children: ReactNode;
}

export function ListBlock({ title, titleId, aside, filters, empty, children }: ListBlockProps) {
  return (
    <>
      <div className="list-head">
        <h2 className="list-title" id={titleId}>
          {title}
        </h2>
        {typeof aside === 'string' ? <p className="list-count">{aside}</p> : aside}
      </div>
      {filters}
      {empty ? <EmptyState /> : children}
    </>
  );
}
