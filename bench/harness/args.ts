// A benchmark's command line, read with node's util.parseArgs.
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

/**
 * The options and positionals of the benchmark node was started with. Every option takes a value
 * (`--runs=3`) unless declared boolean; an unknown one is an error that names it.
 */
export function benchArgs<const O extends ParseArgsOptionsConfig>(options: O) {
  return parseArgs({ args: process.argv.slice(2), options, allowPositionals: true, strict: true });
}

/** Whether this module is the script node was started with. */
export function isMain(metaUrl: string): boolean {
  return metaUrl === `file://${process.argv[1]}`;
}
