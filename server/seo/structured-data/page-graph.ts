/**
 * A page's structured data (schema.org, JSON-LD): one builder per page type, each fed only by the
 * data the page's loaders read. The home page names the site (WebSite) and the group with all
 * its hospitals; 国内医院, 国际医院 and 联系我们 the group with what they show; a hospital's page the
 * Hospital and its doctors (Physician, hospitalAffiliation); an article page its article, an
 * expert's page the Physician; every page but the home page its BreadcrumbList.
 */
import type { Graph, Thing, WebSite } from 'schema-dts';
import type { ExpertSummary } from '../../../shared/contract/entities.js';
import { href } from '../../../shared/site/href.js';
import { absolute, type PageContext, type RoutePage } from '../page-context.js';
import { articleNode } from './article.js';
import { breadcrumbList } from './breadcrumbs.js';
import { branchNodes, groupName, groupOrganization, hospitalNode, organizationId, publisherOf } from './organization.js';
import { physicianNode } from './physician.js';

function website(ctx: PageContext): WebSite | undefined {
  const name = groupName(ctx);
  if (!name) return undefined;
  return {
    '@type': 'WebSite',
    '@id': `${ctx.origin}/#website`,
    name,
    url: absolute(ctx, href('home')),
    inLanguage: 'zh-CN',
    publisher: { '@id': organizationId(ctx) },
  };
}

/** A hospital's doctors, each a Physician affiliated with the hospital's node. */
const doctorNodes = (ctx: PageContext, doctors: readonly ExpertSummary[] | null) => (doctors ?? []).map((e) => physicianNode(ctx, e));

/** The nodes of a page's own type (the breadcrumbs are added for every page but the home page). */
function ownNodes(ctx: PageContext, page: RoutePage): (Thing | undefined)[] {
  switch (page.route) {
    case 'home':
      return [website(ctx), groupOrganization(ctx, { domestic: page.data.hospitals, international: page.data.international })];
    case 'domesticHospitals':
      return [groupOrganization(ctx, { domestic: page.data.hospitals })];
    case 'international': {
      const shown = page.data.hospitals;
      return [
        groupOrganization(ctx, { international: shown.map((v) => v.hospital) }),
        ...shown.flatMap((v) => doctorNodes(ctx, v.doctors)),
      ];
    }
    case 'hospital':
      return [hospitalNode(ctx, page.data.hospital, false), publisherOf(ctx), ...doctorNodes(ctx, page.data.doctors)];
    case 'contact':
      return [groupOrganization(ctx, {}, branchNodes(page.data.branches))];
    case 'contentDetail':
    case 'reportDetail':
      return [articleNode(ctx, page.data.item, page.data.reviewer)];
    case 'expertDetail':
      return [physicianNode(ctx, page.data)];
    default:
      return [];
  }
}

/** The page's graph; `title` names the page in its breadcrumbs (an item's own title, or the page's name). */
export function pageGraph(ctx: PageContext, page: RoutePage, title: string): Graph {
  const nodes = ownNodes(ctx, page);
  if (page.route !== 'home') nodes.push(breadcrumbList(ctx, page, title));
  return { '@context': 'https://schema.org', '@graph': nodes.filter((n): n is Thing => n !== undefined) };
}
