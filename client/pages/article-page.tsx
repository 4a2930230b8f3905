/** 内容详情 and 报道详情: a content item's banner, then its title, facts, cover and text. */
import { Link } from 'react-router';
import { photoSet } from '../components/content-card.js';
import { PageBanner } from '../components/page-banner.js';
import { RichText } from '../components/rich-text.js';
import { categoryHref, href } from '../href.js';
import { categoryName, orEmpty } from '../navigation.js';
import { useLayoutData, usePageData } from '../router-hooks.js';
import '../styles/article.css';

export default function ArticlePage() {
  const item = usePageData<'contentDetail' | 'reportDetail'>();
  const layout = orEmpty(useLayoutData());
  const category = categoryName(item.categoryId, layout);
  const categoryLink = categoryHref(item.categoryId);
  return (
    <>
      <PageBanner titleAs="p" trail={category && categoryLink ? [{ label: category, to: categoryLink }] : []} />
      <div className="page-body soft">
        <div className="container article-layout">
          <article className="card article">
            <header className="article-head">
              {category ? <p className="eyebrow-pill">{category}</p> : null}
              <h1>{item.title}</h1>
              <ul className="article-meta">
                <li>
                  发布日期：<time dateTime={item.date}>{item.date}</time>
                </li>
                <li>来源：{item.source}</li>
                <li>作者：{item.author}</li>
                <li>阅读：{String(item.views).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}</li>
              </ul>
            </header>
            <p className="article-summary">{item.summary}</p>
            <img
              className="article-cover media"
              {...photoSet(item.cover, '(max-width: 500px) calc(100vw - 68px), 45vw')}
              src={item.cover}
              alt={item.title}
              width={800}
              height={500}
              fetchPriority="high"
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
        </div>
      </div>
    </>
  );
}
