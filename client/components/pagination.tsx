/** Page links for a paged list; the page's other parameters are kept. */
import { Link, useLocation } from 'react-router';
import { withPage } from '../../shared/site/href.js';
import { useCurrentRoute } from '../router-hooks.js';

interface PaginationProps {
  total: number;
  page: number;
  pageSize: number;
}

/** The page numbers to show: first, last, and two either side of the current one. */
function pageNumbers(current: number, count: number): (number | 'gap')[] {
  const out: (number | 'gap')[] = [];
  for (let n = 1; n <= count; n++) {
    if (n === 1 || n === count || Math.abs(n - current) <= 2) out.push(n);
    else if (out[out.length - 1] !== 'gap') out.push('gap');
  }
  return out;
}

export function Pagination({ total, page, pageSize }: PaginationProps) {
  const { search } = useLocation();
  const route = useCurrentRoute();
  const count = Math.max(1, Math.ceil(total / pageSize));
  if (count <= 1 || !route) return null;
  const href = (n: number) => withPage(route, new URLSearchParams(search), n);
  return (
    <nav className="pagination" aria-label="分页">
      {page > 1 ? (
        <Link className="page-step" to={href(page - 1)} rel="prev">
          上一页
        </Link>
      ) : (
        <span className="page-step" aria-disabled="true">
          上一页
        </span>
      )}
      <ol>
        {pageNumbers(page, count).map((n, i) =>
          n === 'gap' ? (
            <li key={`gap-${i}`} className="page-gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={n}>
              <Link to={href(n)} className="page-number" aria-current={n === page ? 'page' : undefined} aria-label={`第 ${n} 页`}>
                {n}
              </Link>
            </li>
          ),
        )}
      </ol>
      {page < count ? (
        <Link className="page-step" to={href(page + 1)} rel="next">
          下一页
        </Link>
      ) : (
        <span className="page-step" aria-disabled="true">
          下一页
        </span>
      )}
      <span className="page-total">共 {total} 条</span>
    </nav>
  );
}
