/**
 * Offline checks of Kubernetes manifests, as kubeconform's strict mode does (neither Debian nor
 * npm has kubeconform): each document against the Kubernetes API's schema for its apiVersion and
 * kind (kubernetes-models: the API's OpenAPI schemas compiled by ajv), and every field against
 * the API's types (the same package's declarations, type-checked by TypeScript, whose excess
 * property checks find a misspelt or misplaced field that the schemas let through).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { parseAllDocuments } from 'yaml';

export interface Manifest {
  file: string;
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  // The manifest as parsed: each test reads what it needs.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [field: string]: any;
}

/** Every document of every .yaml file in `dir`. */
export function readManifests(dir: string): Manifest[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((doc) => {
        if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]!.message}`);
        return { ...(doc.toJS() as Omit<Manifest, 'file'>), file } as Manifest;
      }),
    );
}

/**
 * The kinds deploy/k8s may hold, at the API versions a current cluster serves (a manifest of any
 * other kind or version fails: add its model here). Each validates against the API's schema.
 */
const models: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
};

/** The schema's complaints about one document (empty when valid), or why it has no schema. */
export function schemaErrors(manifest: Manifest): string[] {
  const { file: _file, ...document } = manifest;
  const model = models[`${manifest.apiVersion}/${manifest.kind}`];
  if (!model) return [`no schema for ${manifest.apiVersion} ${manifest.kind}`];
  try {
    new model(document as never).validate();
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}

const parsed = new Map<string, ts.SourceFile | undefined>();

/** TypeScript's complaints about the documents' fields, one line each (empty when all are known). */
export function fieldErrors(manifests: Manifest[]): string[] {
  // A file of the repository's own (never written), so that kubernetes-models resolves from node_modules.
  const path = resolve('test/support/k8s-manifests.check.ts');
  const imports = new Set(manifests.map((m) => `import type { I${m.kind} } from 'kubernetes-models/${m.apiVersion}/${m.kind}';`));
  const checks = manifests.map(
    ({ file: _file, ...document }, i) => `export const doc${i}: I${document.kind} = ${JSON.stringify(document)};`,
  );
  const source = [...imports, ...checks].join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (
    (exists) => (name: string) =>
      name === path || exists(name)
  )(host.fileExists.bind(host));
  host.readFile = (name) => (name === path ? source : readFile(name));
  host.getSourceFile = (name, language) => {
    if (name === path) return ts.createSourceFile(name, source, language);
    // The library and the API's declarations are parsed once for all checks.
    if (!parsed.has(name)) parsed.set(name, getSourceFile(name, language));
    return parsed.get(name);
  };
  const program = ts.createProgram([path], options, host);
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(path)).map((d) => {
    const document = manifests[Number(/^export const doc(\d+)/m.exec(source.slice(source.lastIndexOf('\n', d.start ?? 0) + 1))?.[1])];
    const where = document ? `${document.file} ${document.kind} ${document.metadata?.name}` : 'check';
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}
