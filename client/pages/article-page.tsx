/**
 * 内容详情 and 报道详情: a content item's banner, which names the list it belongs to (科普知识,
 * 集团新闻, …: the item's category, or its parent's for a sub-category) with that list's line, then
 * its title, facts, cover and text; beside it (under it on a narrow screen) the expert who
 * reviewed it and how to book; after it, the newest others of its category.
 */
import { Link } from 'react-router';
import { CATEGORY } from '../../shared/constants.js';
import type { Expert } from '../../shared/contract/entities.js';
import { BookingPrompt } from '../components/booking-prompt.js';
import { ContentCard } from '../components/content-card.js';
import { ContentImage, designSizes, standardSizes } from '../components/content-image.js';
import { PageBanner } from '../components/page-banner.js';
import { RichText } from '../components/rich-text.js';
import { categoryHref, categorySection, expertHref, href, parentOf } from '../../shared/site/href.js';
import { categoryName, orEmpty } from '../../shared/site/navigation.js';
import { CATEGORY_ROUTES, ROUTES, type CategoryId, type RouteFacts } from '../../shared/site/route-table.js';
import { useLayoutData, usePageData } from '../router-hooks.js';
import { Typeset } from '../typeset/typeset.js';
import { HospitalLink } from '../components/hospital-link.js';
import '../styles/article.css';

/** The expert named as the text's reviewer, linking to the profile. */
function Reviewer({ expert }: { expert: Expert }) {
  return (
    <section className="card reviewer" aria-labelledby="reviewer-title">
      <h2 className="reviewer-title" id="reviewer-title">
        审核专家
      </h2>
      <div className="reviewer-body">
        <ContentImage className="reviewer-avatar media" image={expert.avatar} sizes={designSizes(80)} width={300} height={360} />
        <div>
          <p className="reviewer-name">
            <Link to={expertHref(expert.id)} className="stretched-link">
              {expert.name}
            </Link>
            <span className="expert-title">{expert.title}</span>
          </p>
          <p className="reviewer-hospital">
            <HospitalLink name={expert.hospital} className="over-card" />
          </p>
        </div>
      </div>
    </section>
  );
}

export default function ArticlePage() {
  const { item, related, reviewer } = usePageData<'contentDetail' | 'reportDetail'>();
  const layout = orEmpty(useLayoutData());
  const category = categoryName(item.categoryId, layout);
  const categoryLink = categoryHref(item.categoryId);
  // The list the item belongs to, named in the banner rather than the route's 内容详情.
  const list = parentOf(item.categoryId) ?? item.categoryId;
  const listName = categoryName(list, layout);
  const listFacts: RouteFacts | undefined = list in CATEGORY_ROUTES ? ROUTES[CATEGORY_ROUTES[list as CategoryId]] : undefined;
  const listLink = categoryHref(list);
  const news = categorySection(item.categoryId) === 'news';
  const device = item.categoryId === CATEGORY.equipment;
  return (
    <>
      <PageBanner
        titleAs="p"
        title={listName}
        lead={listFacts?.lead}
        trail={listName && listLink ? [{ label: listName, to: listLink }] : []}
        current={item.title}
      />
      <div className="page-body soft">
        <div className="container article-layout">
          <article className="card article">
            <header className="article-head">
              {category ? <p className="eyebrow-pill">{category}</p> : null}
              <h1>
                <Typeset text={item.title} />
              </h1>
              <ul className="article-meta">
                {/* A device's page has no publication date. */}
                {device || !item.date ? null : (
                  <li>
                    发布日期：<time dateTime={item.date}>{item.date}</time>
                  </li>
                )}
                {item.source ? <li>来源：{item.source}</li> : null}
                {item.author ? <li>作者：{item.author}</li> : null}
                {item.views === undefined ? null : <li>阅读：{String(item.views).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}</li>}
              </ul>
            </header>
            {item.summary ? (
              <p className="article-summary">
                <Typeset text={item.summary} />
              </p>
            ) : null}
            <ContentImage
              className="article-cover media"
              image={item.cover}
              sizes={standardSizes('calc(100vw - 68px)', ['(max-width: 1056px) calc(100vw - 183px)', 'min(100vw - 575px, 698px)'], '45vw')}
              largeSizes="(max-width: 500px) calc(100vw - 68px), (max-width: 1484px) calc(100vw - 208px), (max-width: 1769px) calc(100vw - 648px), 1138px"
              alt={item.title}
              width={800}
              height={500}
              priority
            />
            {/* The text's own headings start at h3. */}
            <h2 className="sr-only">正文</h2>
            <RichText html={item.content} />
            <footer className="article-foot">
              {category && categoryLink ? (
                <Link to={categoryLink} className="btn btn-ghost">
                  返回{category}
                </Link>
              ) : (
                <Link to={href('home')} className="btn btn-ghost">
                  返回首页
                </Link>
              )}
            </footer>
          </article>
          <div className="article-side">
            {reviewer ? <Reviewer expert={reviewer} /> : null}
            <BookingPrompt question="如有眼部不适或就诊疑问，" />
          </div>
        </div>
        {related.length > 0 ? (
          <section className="container related" aria-labelledby="related-title">
            <h2 className="list-title" id="related-title">
              {news ? '相关报道' : device ? '其他设备' : '相关文章'}
            </h2>
            <div className="card-grid grid3">
              {related.map((r) => (
                <ContentCard key={r.id} item={r} dated={!device} />
              ))}
            </div>
          </section>
        ) : null}
      </div>
    </>
  );
}
