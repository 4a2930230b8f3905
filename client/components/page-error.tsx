/**
 * Error states (docs/product/errors.md): a Chinese message inside the normal layout for a page, or a
 * minimal page when even the layout failed. Never a stack trace.
 */
import { useEffect } from 'react';
import { isRouteErrorResponse, Link, useLocation, useRouteError } from 'react-router';
import { href, sectionHref } from '../../shared/site/href.js';
import { NOT_FOUND_TITLE, SECTIONS, TOO_MANY_TITLE, UNAVAILABLE_TITLE, type SectionKey } from '../../shared/site/route-table.js';
import { FirstScreenEnd } from './first-screen-end.js';
import { SectionHead } from './section-head.js';
import '../styles/global.css';

type ErrorKind = 'not-found' | 'too-many' | 'unavailable';

/** What went wrong: the page does not exist, the visitor asked too often, or the content cannot be had now. */
function useErrorKind(): ErrorKind {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return 'not-found';
  if (isRouteErrorResponse(error) && error.status === 429) return 'too-many';
  return 'unavailable';
}

const MESSAGES: Record<ErrorKind, { mark: string; title: string; heading: string; text: string }> = {
  'not-found': {
    mark: '404',
    title: NOT_FOUND_TITLE,
    heading: '页面未找到',
    text: '您访问的页面不存在或已被移除，请检查网址是否正确，或从以下入口继续浏览。',
  },
  'too-many': {
    mark: '429',
    title: TOO_MANY_TITLE,
    heading: '访问过于频繁',
    text: '您在短时间内打开了很多新页面，请稍等片刻再试。已浏览过的页面仍可正常访问。',
  },
  unavailable: {
    mark: '503',
    title: UNAVAILABLE_TITLE,
    heading: '内容暂时无法加载',
    text: '服务暂时不可用，我们正在尽快恢复。请稍后重新加载，或先浏览网站的其他内容。',
  },
};

function ErrorMessage({ kind }: { kind: ErrorKind }) {
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const message = MESSAGES[kind];

  useEffect(() => {
    document.title = message.title;
  }, [message, here]);

  const notFound = kind === 'not-found';
  return (
    <section className="error-state" aria-labelledby="error-title">
      <div className="error-mark" aria-hidden="true">
        {message.mark}
      </div>
      <h1 id="error-title">{message.heading}</h1>
      <p>{message.text}</p>
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
      <FirstScreenEnd />
      {notFound ? <SectionIndex /> : null}
    </section>
  );
}

/** Every section of the site, so that a visitor who followed a dead link can find the page they wanted. */
function SectionIndex() {
  const keys = (Object.keys(SECTIONS) as SectionKey[]).filter((k) => k !== 'home');
  return (
    <nav className="error-sections" aria-labelledby="error-sections-title">
      <SectionHead id="error-sections-title" title="您也可以从这些栏目找到所需内容" />
      <ul>
        {keys.map((k) => (
          <li key={k}>
            <Link to={sectionHref(k)}>{SECTIONS[k].label}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A page's error boundary, drawn inside the layout. */
export function PageError() {
  const kind = useErrorKind();
  return (
    <div className="container error-page">
      <ErrorMessage kind={kind} />
    </div>
  );
}

/** The root's error boundary: no layout data, so a minimal page of its own. */
export function RootError() {
  const kind = useErrorKind();
  return (
    <main id="main" className="root-error">
      <ErrorMessage kind={kind} />
    </main>
  );
}
