/** Cards and lists of content items (articles, research, news): one id space, one detail link. Rows: content-row.tsx. */
import { Link } from 'react-router';
import type { ContentSummary, Page } from '../../shared/contract/entities.js';
import { contentHref } from '../../shared/site/href.js';
import { ContentImage, standardSizes } from './content-image.js';
import { Typeset } from '../typeset/typeset.js';
import { Pagination } from './pagination.js';

/** Slot widths: a card in a row of three (two under 52 em), full width less the page's margins on a phone. */
export const CARD_SIZES = standardSizes(
  'calc(100vw - 32px)',
  ['(max-width: 832px) calc(50vw - 28px)', 'min(33.34vw - 37px, 386px)'],
  '23vw',
);
/**
 * On a phone, a card's widest variant: 1.8 × the 358 px a 390 px phone draws it at. A 3× phone
 * would take 1080 px, at about four times the bytes for no difference seen at a card's size: a
 * list's cards, which a phone's lazy loading fetches several screens ahead, stay light
 * (docs/product/media.md).
 */
export const CARD_PHONE_WIDEST = 640;
/** In the large-text mode's fluid layout: two columns under 52 em (1170 px), three above, the column at most 1770 px. */
export const CARD_LARGE_SIZES =
  '(max-width: 500px) calc(100vw - 32px), (max-width: 1169px) calc(50vw - 44px), (max-width: 1769px) calc((100vw - 128px) / 3), 553px';

/** A content item as a card: cover, date, title and summary, the whole card a link. */
export function ContentCard({ item, priority, dated = true }: { item: ContentSummary; priority?: boolean; dated?: boolean }) {
  return (
    <article className="card content-card">
      <ContentImage
        className="card-media media"
        image={item.cover}
        sizes={CARD_SIZES}
        largeSizes={CARD_LARGE_SIZES}
        phoneWidest={CARD_PHONE_WIDEST}
        width={800}
        height={500}
        priority={priority}
      />
      <div className="card-body">
        {dated && item.date ? (
          <time className="card-date" dateTime={item.date}>
            {item.date}
          </time>
        ) : null}
        <h3 className="card-title">
          <Link to={contentHref(item)} className="stretched-link">
            <Typeset text={item.title} />
          </Link>
        </h3>
        {item.summary ? (
          <p className="card-text">
            <Typeset text={item.summary} />
          </p>
        ) : null}
      </div>
    </article>
  );
}

export function EmptyState({ children = '暂无内容，敬请期待。' }: { children?: React.ReactNode }) {
  return <p className="empty-state">{children}</p>;
}

/** A paged list of content cards with its page links. */
export function ContentGrid({ list, dated }: { list: Page<ContentSummary>; dated?: boolean }) {
  return (
    <>
      <div className="card-grid grid3 fill">
        {list.items.map((item, i) => (
          <ContentCard key={item.id} item={item} priority={i === 0} dated={dated} />
        ))}
      </div>
      <Pagination total={list.total} page={list.page} pageSize={list.pageSize} />
    </>
  );
}
