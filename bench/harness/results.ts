// bench/RESULTS.md: one section per benchmark, rewritten by the command named in it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { ROOT } from './processes.js';

const RESULTS = `${ROOT}bench/RESULTS.md`;

/** The command that is running, as written in RESULTS.md. */
export function commandLine(): string {
  return (
    process.env.BENCH_COMMAND ??
    `npm run bench -- ${process.argv[1]
      ?.split('/')
      .pop()
      ?.replace(/\.[jt]s$/, '')}`
  );
}

const PREAMBLE = `# Benchmark results

Written by the scripts in bench/ (each section by the command named in it; \`npm run bench\`
rewrites every section it runs). Loopback only, on the project's machine (2 cores, shared,
noisy). Each figure sits beside a baseline measured in the same run, in alternating rounds:
the ratios are what to compare across runs, not the absolute figures. A ratio carries the
spread of its rounds in brackets; a target that falls inside it is marked within noise.
`;

/**
 * Replace (or append) one section of RESULTS.md, delimited by HTML comments, so that a script
 * run on its own refreshes its own tables and leaves the others.
 */
export function writeSection(id: string, markdown: string): void {
  const start = `<!-- bench:${id} -->`;
  const end = `<!-- /bench:${id} -->`;
  let text = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : PREAMBLE;
  if (!text.includes('<!-- bench:')) text = PREAMBLE; // the old hand-written layout
  const block = `${start}\n${markdown.trim()}\n${end}`;
  const at = text.indexOf(start);
  const until = text.indexOf(end);
  text = at !== -1 && until > at ? text.slice(0, at) + block + text.slice(until + end.length) : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(RESULTS, text);
}

/**
 * Run a benchmark (`bench()` resolves to `{ met, markdown, ... }`), add `profile(result)`'s
 * markdown when its target is missed, and write the result as section `id` of RESULTS.md.
 */
export async function measureSection<R extends { met: boolean; markdown: string }>(
  id: string,
  bench: () => Promise<R>,
  profile: (result: R) => Promise<string>,
  { alwaysProfile = false } = {},
): Promise<R> {
  const r = await bench();
  const markdown = r.met && !alwaysProfile ? r.markdown : `${r.markdown}\n${await profile(r)}`;
  writeSection(id, markdown);
  return { ...r, markdown };
}

/** Order the sections of RESULTS.md as given (unknown ones stay at the end). */
export function orderSections(ids: readonly string[]): void {
  if (!existsSync(RESULTS)) return;
  const text = readFileSync(RESULTS, 'utf8');
  const blocks = new Map<string, string>();
  const re = /<!-- bench:([\w-]+) -->[\s\S]*?<!-- \/bench:\1 -->/g;
  for (const m of text.matchAll(re)) if (m[1]) blocks.set(m[1], m[0]);
  const ordered = [...ids.filter((id) => blocks.has(id)), ...[...blocks.keys()].filter((id) => !ids.includes(id))];
  writeFileSync(RESULTS, `${PREAMBLE}\n${ordered.map((id) => blocks.get(id)).join('\n\n')}\n`);
}
