/**
 * The project's own documentation stays short where it is read first and true where it points:
 * README.md under 200 lines, and every file README.md and docs/ name (a link, or a path in
 * backticks) exists.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The documents read first: the README and docs/ (product rules and decision records included, not the records' template). */
const DOCS = [
  'README.md',
  ...readdirSync('docs', { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md') && f !== 'decisions/template.md')
    .map((f) => `docs/${f}`),
];

/** A decision record is not rewritten when code moves: the paths it names are those of its day; its links must still hold. */
const isRecord = (doc: string) => doc.startsWith('docs/decisions/');

/** Where a document points: its relative links, resolved from its folder, and the repository paths it names in backticks. */
function pointsTo(doc: string): string[] {
  const text = readFileSync(doc, 'utf8');
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!.split('#')[0]!)
    .filter((to) => to && !/^[a-z]+:/i.test(to))
    .map((to) => join(dirname(doc), decodeURIComponent(to)));
  if (isRecord(doc)) return links;
  const named = [
    ...text.matchAll(
      /`((?:server|client|shared|test|bench|deploy|docs|scripts)\/[\w./-]+\.(?:ts|tsx|js|md|yaml|yml|vcl|json|css|png|sh))`/g,
    ),
  ].map((m) => m[1]!);
  return [...links, ...named];
}

describe('the documentation', () => {
  it('README.md stays under 200 lines, none of them over 200 characters', () => {
    const lines = readFileSync('README.md', 'utf8').split('\n');
    expect(lines.length).toBeLessThan(200);
    expect(lines.filter((line) => line.length > 200)).toEqual([]);
  });

  it('every file the README and docs/ point to exists', () => {
    const missing = DOCS.flatMap((doc) =>
      pointsTo(doc)
        .filter((to) => !existsSync(to))
        .map((to) => `${doc} → ${to}`),
    );
    expect(missing).toEqual([]);
  });
});
