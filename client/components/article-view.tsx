/** A content item's page (内容详情, 报道详情): banner, then title, facts, cover and the text. */
import { Link } from 'react-router';
import type { ContentDetail } from '../../shared/contract/entities.js';
import { categoryHref } from '../../shared/links.js';
import { PageBanner, type Crumb } from './page-banner.js';
import { RichText } from './rich-text.js';
import { categoryName, orEmpty, sectionOf } from './site-sections.js';
import { useLayoutData } from '../page-data-hooks.js';
import '../styles/article.css';

export function ArticleView({ item, pageTitle }: { item: ContentDetail; pageTitle: string }) {
  const layout = orEmpty(useLayoutData());
  const category = categoryName(item.categoryId, layout);
  const section = sectionOf(item.categoryId);
  const trail: Crumb[] = [];
  if (section) trail.push(section);
  if (category) trail.push({ label: category, to: categoryHref(item.categoryId, category) });
  return (
    <>
      <PageBanner title={pageTitle} titleAs="p" trail={trail} current={pageTitle} />
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
            <img className="article-cover media" src={item.cover} alt={item.title} width={800} height={500} fetchPriority="high" />
            {/* The text's own headings start at h3. */}
            <h2 className="sr-only">正文</h2>
            <RichText html={item.content} />
            <footer className="article-foot">
              {category ? (
                <Link to={categoryHref(item.categoryId, category)} className="btn btn-ghost">
                  返回{category}
                </Link>
              ) : (
                <Link to="/" className="btn btn-ghost">
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
