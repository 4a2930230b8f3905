/**
 * How a page presents itself to search engines and when shared: its description (from its own
 * content where it shows one thing, else the route's own line), its share title (an item's own
 * title, which the <title> also puts before the page's name: docs/product/routes.md), its Open Graph type
 * and its share card.
 */
import { ROUTE_DESCRIPTIONS } from '../../shared/site/route-descriptions.js';
import { ROUTES } from '../../shared/site/route-table.js';
import { pageItem, type PageContext, type RoutePage } from './page-context.js';
import { joinParts, plainLine } from './plain-text.js';
import type { MediaImage } from '../../shared/contract/entities.js';
import type { CardAddress } from './share-card-address.js';

export interface PageSummary {
  /** Plain text, at most about 120 characters. */
  description: string;
  /** og:title and the name in the breadcrumbs: the item's own title, or the page's name. */
  title: string;
  type: 'website' | 'article';
  /** An article's date (article:published_time). */
  publishedTime?: string | undefined;
  card: CardAddress;
  /** The page's own picture (an article's cover, an expert's portrait), shared where it is large enough. */
  photo?: MediaImage | undefined;
}

/** A page about one thing describes that thing; any other keeps its route's description. */
export function summarise(ctx: PageContext, page: RoutePage): PageSummary {
  const own = { description: ROUTE_DESCRIPTIONS[page.route], title: ROUTES[page.route].title, type: 'website' as const };
  switch (page.route) {
    case 'home': {
      const intro = ctx.layout.intro;
      return intro
        ? { ...own, title: intro.name, description: plainLine(intro.summary), card: { route: 'home' } }
        : { ...own, card: { route: 'home' } };
    }
    case 'contentDetail':
    case 'reportDetail': {
      const item = pageItem(page)!;
      return {
        title: item.title,
        description: item.summary ? plainLine(item.summary) : own.description,
        type: 'article',
        publishedTime: item.date,
        card: { route: page.route, id: item.id },
        photo: item.cover,
      };
    }
    case 'expertDetail': {
      const e = page.data;
      return {
        ...own,
        title: `${e.name}（${e.title}）`,
        description: plainLine(`${e.name}，${e.hospital}${e.title}，擅长${e.specialty}。`),
        card: { route: 'expertDetail', id: e.id },
        photo: e.avatar,
      };
    }
    case 'international': {
      const hospital = page.data.hospitals[0]?.hospital;
      if (!hospital) return { ...own, card: { route: 'international' } };
      const where = joinParts([hospital.country, hospital.city], '');
      return {
        ...own,
        title: hospital.name,
        description: plainLine(`${hospital.name}（${where}）：${hospital.departments.join('、')}。${hospital.summary}`),
        card: { route: 'international' },
      };
    }
    case 'hospital': {
      const hospital = page.data.hospital;
      return {
        ...own,
        title: hospital.name,
        description: plainLine(`${hospital.name}（${hospital.city}）：${hospital.departments.join('、')}。${hospital.summary}`),
        card: { route: 'hospital', id: hospital.id },
      };
    }
    case 'treatments':
      // The page of one treatment (addressed by its title) describes that treatment.
      return ctx.url.searchParams.get('title')
        ? { ...own, title: page.data.selected.title, description: plainLine(page.data.selected.summary), card: { route: 'treatments' } }
        : { ...own, card: { route: 'treatments' } };
    default:
      return { ...own, card: { route: page.route } };
  }
}
