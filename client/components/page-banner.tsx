/** The band at the top of every inner page: the page's title, its line, the breadcrumbs and its section's illustration. */
import { Link } from 'react-router';
import { href } from '../../shared/site/href.js';
import { sectionCrumbs, type Crumb } from '../../shared/site/navigation.js';
import { ROUTE_LEADS } from '../../shared/site/route-leads.js';
import { ROUTES, SECTIONS } from '../../shared/site/route-table.js';
import { useCurrentRoute, useCurrentSection } from '../router-hooks.js';
import { Typeset } from '../typeset/typeset.js';
import { FirstScreenEnd } from './first-screen-end.js';

interface PageBannerProps {
  /** Defaults to the route's title. */
  title?: string;
  /** Defaults to the route's line. */
  lead?: string | undefined;
  /** Crumbs after the section's (a category, say). */
  trail?: Crumb[];
  /** The last crumb; defaults to the title. */
  current?: string | undefined;
  /** Pages that put their own h1 lower down (an article, a profile) show the title as plain text. */
  titleAs?: 'h1' | 'p';
  /** False on a page whose first screen goes on past the banner: it places the FirstScreenEnd mark itself. */
  endsFirstScreen?: boolean;
}

export function PageBanner({ title, lead, trail = [], current, titleAs = 'h1', endsFirstScreen = true }: PageBannerProps) {
  const route = useCurrentRoute();
  const section = useCurrentSection();
  const facts = route ? ROUTES[route] : undefined;
  const shownTitle = title ?? facts?.title ?? '';
  const shownLead = lead ?? (route ? ROUTE_LEADS[route] : undefined);
  const crumbs = [...(route ? sectionCrumbs(route, section) : []), ...trail];
  const Title = titleAs;
  const art = section ? SECTIONS[section].banner : undefined;
  return (
    <section className="page-banner" data-section={section}>
      {/* Decorative and hidden on phones: lazy, so that a phone never fetches it. */}
      {art ? <img className="page-banner-art" src={art} alt="" width={640} height={320} loading="lazy" decoding="async" /> : null}
      <div className="container">
        <Title className="page-banner-title">
          <Typeset text={shownTitle} />
        </Title>
        {shownLead ? (
          <p className="page-banner-lead">
            <Typeset text={shownLead} />
          </p>
        ) : null}
        <nav aria-label="面包屑导航" className="breadcrumb">
          <ol>
            <li>
              <Link to={href('home')}>首页</Link>
            </li>
            {crumbs.map((crumb) => (
              <li key={crumb.label}>{crumb.to ? <Link to={crumb.to}>{crumb.label}</Link> : crumb.label}</li>
            ))}
            <li aria-current="page">{current ?? shownTitle}</li>
          </ol>
        </nav>
      </div>
      {endsFirstScreen ? <FirstScreenEnd /> : null}
    </section>
  );
}
