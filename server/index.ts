/**
 * The service's entry. It checks the runtime before anything else is loaded: on an older Node
 * the service would start and then fail in ways far from the cause (docs/decisions/013). The
 * version is the runtime package's (docs/decisions/029), inlined by the build.
 */
import runtime from '../scripts/node-runtime/package.json' with { type: 'json' };

const REQUIRED_MAJOR = Number(runtime.version.split('.')[0]);
const major = Number(process.versions.node.split('.')[0]);

if (major < REQUIRED_MAJOR) {
  process.stderr.write(
    `This service needs Node.js ${REQUIRED_MAJOR} or newer; it was started with Node.js ${process.version} (${process.execPath}).\n` +
      'Start it through npm (`npm start`), which runs the Node.js that `npm install` put in node_modules/.bin,\n' +
      `or install Node.js ${REQUIRED_MAJOR} (the version in scripts/node-runtime/package.json).\n`,
  );
  process.exit(1);
}

await import('./main.js').catch((error: unknown) => {
  process.stderr.write(`failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
