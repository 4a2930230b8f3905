/**
 * The OpenAPI document's version follows its contract (server/api-docs/openapi-version.ts): the
 * live document's fingerprint is the one recorded beside its version, and a changed contract
 * whose version was not raised is caught, with a message saying what to do. Examples and the
 * server's address are not the contract: changing them changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_VERSION, openApiFingerprint, versionProblem, VERSION_FILE } from '../server/api-docs/openapi-version.js';
import type { OpenApiDocument } from '../server/api-docs/openapi.js';
import { startService, type RunningService } from './support/start-service.js';

describe('the OpenAPI version', () => {
  let svc: RunningService;
  let live: OpenApiDocument;
  beforeAll(async () => {
    svc = await startService();
    live = (await (await fetch(`${svc.url}/api/openapi.json`)).json()) as OpenApiDocument;
  });
  afterAll(() => svc?.close());

  /** A copy of the live document, changed by `edit`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the copy is edited by the paths the specification gives
  type Editable = Record<string, any>;
  const changed = (edit: (doc: Editable) => void): OpenApiDocument => {
    const copy = structuredClone(live);
    edit(copy);
    return copy;
  };

  it('is the recorded one, and the live contract is the one recorded with it', () => {
    expect(live.info.version).toBe(OPENAPI_VERSION.version);
    expect(versionProblem(live, OPENAPI_VERSION)).toBeUndefined();
  });

  it('catches a changed contract whose version was not raised, and says what to do', () => {
    const narrower = changed((doc) => {
      doc.paths['/api/news']!.get.parameters[2].schema.maximum = 20;
    });
    const message = versionProblem(narrower, OPENAPI_VERSION);
    expect(message).toContain('the API contract changed');
    expect(message).toContain(`still ${OPENAPI_VERSION.version}`);
    expect(message).toContain('npm run openapi:version -- minor');
    expect(message).toContain(VERSION_FILE);
    expect(message).toContain(openApiFingerprint(narrower));
  });

  it('catches a new path, a new status and a changed schema alike', () => {
    const edits: ((doc: Editable) => void)[] = [
      (doc) => {
        doc.paths['/api/doctors'] = doc.paths['/api/experts'];
      },
      (doc) => {
        delete doc.paths['/api/news'].get.responses['429'];
      },
      (doc) => {
        doc.components.schemas.Error.properties.error.properties.code = { type: 'integer' };
      },
    ];
    for (const edit of edits) expect(versionProblem(changed(edit), OPENAPI_VERSION)).toMatch(/the API contract changed/);
  });

  it('with the version raised, asks for the new fingerprint to be recorded beside it', () => {
    const raised = changed((doc) => {
      doc.paths['/api/news']!.get.parameters[2].schema.maximum = 20;
      doc.info.version = '99.0.0';
    });
    expect(versionProblem(raised, OPENAPI_VERSION)).toContain(`record ${openApiFingerprint(raised)}`);
    expect(versionProblem(raised, { version: '99.0.0', fingerprint: openApiFingerprint(raised) })).toBeUndefined();
  });

  it('is not moved by examples or by the address the document is served at', async () => {
    const elsewhere = await startService({ PUBLIC_ORIGIN: 'https://eye.example' });
    try {
      const served = (await (await fetch(`${elsewhere.url}/api/openapi.json`)).json()) as OpenApiDocument;
      expect(served.servers[0]!.url).toBe('https://eye.example');
      expect(openApiFingerprint(served)).toBe(openApiFingerprint(live));
    } finally {
      await elsewhere.close();
    }
    const otherExamples = changed((doc) => {
      doc.paths['/api/news']!.get.responses['200'].content['application/json'].examples.demo.value.data.items = [];
    });
    expect(versionProblem(otherExamples, OPENAPI_VERSION)).toBeUndefined();
  });
});
