/**
 * Error states (docs/product/errors.md): a Chinese message inside the normal layout for a page, or a
 * minimal page when even the layout failed. Never a stack trace.
 */
import { useEffect } from 'react';
import { isRouteErrorResponse, Link, useLocation, useRouteError } from 'react-router';
import { href } from '../href.js';
import { NOT_FOUND_TITLE, UNAVAILABLE_TITLE } from '../route-table.js';
import '../styles/global.css';

function useIsNotFound(): boolean {
  const error = useRouteError();
  return isRouteErrorResponse(error) && error.status === 404;
}

function ErrorMessage({ notFound }: { notFound: boolean }) {
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;

  useEffect(() => {
    document.title = notFound ? NOT_FOUND_TITLE : UNAVAILABLE_TITLE;
  }, [notFound, here]);

  return (
    <section className="error-state" aria-labelledby="error-title">
      <div className="error-mark" aria-hidden="true">
        {notFound ? '404' : '503'}
      </div>
      <h1 id="error-title">{notFound ? '页面未找到' : '内容暂时无法加载'}</h1>
      {notFound ? (
        <p>您访问的页面不存在或已被移除，请检查网址是否正确，或从以下入口继续浏览。</p>
      ) : (
        <p>服务暂时不可用，我们正在尽快恢复。请稍后重新加载，或先浏览网站的其他内容。</p>
      )}
      <div className="error-actions">
        {notFound ? null : (
          // A plain link: a full reload of the same address.
          <a className="btn btn-primary" href={here}>
            重新加载
          </a>
        )}
        <Link className={notFound ? 'btn btn-primary' : 'btn btn-ghost'} to="/">
          返回首页
        </Link>
        <Link className="btn btn-ghost" to={href('contact')}>
          联系我们
        </Link>
      </div>
    </section>
  );
}

/** A page's error boundary, drawn inside the layout. */
export function PageError() {
  const notFound = useIsNotFound();
  return (
    <div className="container error-page">
      <ErrorMessage notFound={notFound} />
    </div>
  );
}

/** The root's error boundary: no layout data, so a minimal page of its own. */
export function RootError() {
  const notFound = useIsNotFound();
  return (
    <main id="main" className="root-error">
      <ErrorMessage notFound={notFound} />
    </main>
  );
}
