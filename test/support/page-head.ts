/** Reading what a page's head says: its meta tags, its JSON-LD block, expanded by a JSON-LD processor. */
import jsonld from 'jsonld';
import { schemaOrgLoader } from './schema-org-context.js';

export const SCHEMA = 'http://schema.org/';

/** The text of an attribute or element, with the numeric references the server escapes with resolved. */
const unescape = (text: string) => text.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');

export function headOf(html: string): string {
  return html.slice(0, html.indexOf('</head>'));
}

/** The content of the `<meta property|name="key">`, or undefined. */
export function meta(html: string, key: string): string | undefined {
  const found = new RegExp(`<meta (?:property|name)="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)">`).exec(headOf(html));
  return found ? unescape(found[1]!) : undefined;
}

export function description(html: string): string | undefined {
  return meta(html, 'description');
}

/** The JSON-LD blocks of the head, as written. */
export function jsonLdBlocks(html: string): string[] {
  return [...headOf(html).matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
}

export type Expanded = Record<string, unknown> & { '@id'?: string; '@type'?: string[] };

/** The block expanded (schema.org's context from its local copy): its nodes, the nested ones included. */
export async function expandedNodes(block: string): Promise<Expanded[]> {
  const expanded = (await jsonld.expand(JSON.parse(block) as object, { documentLoader: schemaOrgLoader })) as Expanded[];
  const nodes: Expanded[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (value === null || typeof value !== 'object') return;
    const node = value as Expanded;
    if ('@value' in node) return;
    nodes.push(node);
    for (const [key, field] of Object.entries(node)) if (!key.startsWith('@')) walk(field);
  };
  walk(expanded);
  return nodes;
}

export const isA = (node: Expanded, type: string) => (node['@type'] ?? []).includes(SCHEMA + type);

/** The expanded values of a property. */
export function values(node: Expanded, property: string): Expanded[] {
  return (node[SCHEMA + property] as Expanded[] | undefined) ?? [];
}

/** A property's first literal value. */
export function literal(node: Expanded, property: string): unknown {
  return values(node, property)[0]?.['@value'];
}

/** A property's first node reference (an IRI: a URL). */
export function reference(node: Expanded, property: string): string | undefined {
  return values(node, property)[0]?.['@id'];
}
