/**
 * schema.org's JSON-LD context, as a local copy (tests reach no network), and a jsonld document
 * loader that serves it. The copy is made the way schema.org makes its own context file
 * (https://schema.org/docs/jsonldcontext.jsonld) from its vocabulary: `@vocab` and the `schema:`
 * prefix on http://schema.org/, one term per type, property and enumeration member, and each
 * property whose range includes URL read as a node reference (`@type: @id`), else a Date or
 * DateTime one typed so. The vocabulary is the release schema-dts was generated from (its
 * declarations name every type, property and range), so the copy and the types the site is
 * written against cannot drift apart.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import type { RemoteDocument } from 'jsonld/jsonld-spec.js';

const SCHEMA = 'http://schema.org/';

interface Vocabulary {
  types: Set<string>;
  /** Property name → the union of its ranges' names. */
  properties: Map<string, Set<string>>;
  members: Set<string>;
  /** The properties a type may carry: its own and every supertype's. */
  propertiesOf(type: string): ReadonlySet<string>;
}

function readVocabulary(): Vocabulary {
  const require = createRequire(import.meta.url);
  const declarations = readFileSync(join(dirname(require.resolve('schema-dts/package.json')), 'dist/schema.d.ts'), 'utf8');
  const types = new Set([...declarations.matchAll(/"@type": "(\w+)";/g)].map((m) => m[1]!));
  const members = new Set([...declarations.matchAll(/"https:\/\/schema\.org\/(\w+)"/g)].map((m) => m[1]!));
  const properties = new Map<string, Set<string>>();
  for (const [, name, range] of declarations.matchAll(/^\s+"(\w+)"\?: SchemaValue<([^,]+(?:<[^>]*>)?[^,]*), "\w+">;/gm)) {
    const ranges = properties.get(name!) ?? new Set<string>();
    for (const part of range!.split('|')) ranges.add(part.trim());
    properties.set(name!, ranges);
  }
  // Each type's own properties and supertypes, from `interface XBase extends YBase, ZBase { "p"?: … }`.
  const bases = new Map<string, { parents: string[]; own: string[] }>();
  for (const [, name, parents, body] of declarations.matchAll(/^interface (\w+)Base extends ([^{]+)\{([\s\S]*?)^\}/gm)) {
    bases.set(name!, {
      parents: parents!
        .split(',')
        .map((p) => p.trim())
        .filter((p) => /^\w+Base$/.test(p))
        .map((p) => p.slice(0, -4)),
      own: [...body!.matchAll(/^\s+"(\w+)"\?:/gm)].map((m) => m[1]!),
    });
  }
  const baseOf = new Map(
    [...declarations.matchAll(/export interface \w+Leaf extends (\w+)Base \{\s*"@type": "(\w+)";/g)].map((m) => [m[2]!, m[1]!]),
  );
  const memo = new Map<string, Set<string>>();
  const ofBase = (base: string): Set<string> => {
    let found = memo.get(base);
    if (!found) {
      const entry = bases.get(base);
      found = new Set([...(entry?.own ?? []), ...(entry?.parents ?? []).flatMap((p) => [...ofBase(p)])]);
      memo.set(base, found);
    }
    return found;
  };
  return { types, properties, members, propertiesOf: (type) => ofBase(baseOf.get(type) ?? type) };
}

export const vocabulary = readVocabulary();

function buildContext(): RemoteDocument['document'] {
  const terms: Record<string, unknown> = { '@vocab': SCHEMA, schema: SCHEMA, id: '@id', type: '@type' };
  for (const name of [...vocabulary.types, ...vocabulary.members]) terms[name] = { '@id': `schema:${name}` };
  for (const [name, ranges] of vocabulary.properties) {
    const coerce = ranges.has('URL') ? '@id' : ranges.has('Date') ? 'schema:Date' : ranges.has('DateTime') ? 'schema:DateTime' : undefined;
    terms[name] = coerce ? { '@id': `schema:${name}`, '@type': coerce } : { '@id': `schema:${name}` };
  }
  return { '@context': terms } as RemoteDocument['document'];
}

const context = buildContext();

/** A jsonld document loader that knows schema.org's context and nothing else. */
export function schemaOrgLoader(url: string): Promise<RemoteDocument> {
  if (/^https?:\/\/schema\.org\/?(docs\/jsonldcontext\.json(ld)?)?$/.test(url)) {
    return Promise.resolve({ documentUrl: url, document: context });
  }
  return Promise.reject(new Error(`no network in tests: ${url}`));
}

/** The schema.org term an expanded IRI names, or undefined for an IRI outside the vocabulary. */
export function schemaTerm(iri: string): string | undefined {
  return iri.startsWith(SCHEMA) ? iri.slice(SCHEMA.length) : undefined;
}
