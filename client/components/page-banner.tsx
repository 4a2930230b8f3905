/** The band at the top of every inner page: the page's title and a breadcrumb. */
import { Link } from 'react-router';

export interface Crumb {
  label: string;
  to?: string;
}

interface PageBannerProps {
  title: string;
  /** Trail between 首页 and the current page. */
  trail?: Crumb[];
  /** The last crumb; defaults to the title. */
  current?: string;
  lead?: string;
  /** Detail pages put their own h1 in the article; the band's title is then plain text. */
  titleAs?: 'h1' | 'p';
}

export function PageBanner({ title, trail = [], current, lead, titleAs = 'h1' }: PageBannerProps) {
  const Title = titleAs;
  return (
    <section className="page-banner">
      <div className="container">
        <Title className="page-banner-title">{title}</Title>
        {lead ? <p className="page-banner-lead">{lead}</p> : null}
        <nav aria-label="面包屑导航" className="breadcrumb">
          <ol>
            <li>
              <Link to="/">首页</Link>
            </li>
            {trail.map((crumb) => (
              <li key={crumb.label}>{crumb.to ? <Link to={crumb.to}>{crumb.label}</Link> : crumb.label}</li>
            ))}
            <li aria-current="page">{current ?? title}</li>
          </ol>
        </nav>
      </div>
    </section>
  );
}
