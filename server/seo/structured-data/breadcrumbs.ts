/**
 * A page's BreadcrumbList, from the route table as the page's breadcrumbs are (shared/site/navigation.ts):
 * 首页, the page's section unless the page is the section itself, a content item's category, then
 * the page. Every crumb links (a section crumb that the page shows as plain text links to where
 * the section's header item leads).
 */
import type { BreadcrumbList } from 'schema-dts';
import { categoryHref, categorySection, href, sectionHref } from '../../../shared/site/href.js';
import { categoryName, sectionCrumbs } from '../../../shared/site/navigation.js';
import { ROUTES, sectionOf } from '../../../shared/site/route-table.js';
import { absolute, pageItem, type PageContext, type RoutePage } from '../page-context.js';

interface Crumb {
  name: string;
  url: string;
}

export function breadcrumbList(ctx: PageContext, page: RoutePage, title: string): BreadcrumbList {
  const item = pageItem(page);
  const section = (item && categorySection(item.categoryId)) ?? sectionOf(page.route);
  const crumbs: Crumb[] = [{ name: ROUTES.home.title, url: absolute(ctx, href('home')) }];
  if (section)
    for (const crumb of sectionCrumbs(page.route, section))
      crumbs.push({ name: crumb.label, url: absolute(ctx, crumb.to ?? sectionHref(section)) });
  const category = item ? categoryHref(item.categoryId) : undefined;
  const categoryLabel = item ? categoryName(item.categoryId, ctx.layout) : undefined;
  if (category && categoryLabel) crumbs.push({ name: categoryLabel, url: absolute(ctx, category) });
  crumbs.push({ name: title, url: ctx.canonical });
  // A crumb that names the page before it (a section whose first link is its category) is shown once.
  const shown = crumbs.filter((c, i) => i === 0 || c.url !== crumbs[i - 1]!.url);
  return {
    '@type': 'BreadcrumbList',
    itemListElement: shown.map((c, i) => ({ '@type': 'ListItem', position: i + 1, name: c.name, item: c.url })),
  };
}
