/**
 * The edge's VCL for deploy/compose.yaml, made from the shipped one (deploy/varnish/default.vcl)
 * and the compose file's addresses: the one backend on 127.0.0.1:3000 becomes one backend per
 * instance behind a round-robin director, and the instances' network may purge. Everything
 * else is the shipped VCL as it is, so that the two cannot drift apart.
 */
import { parse } from 'yaml';

export const SHIPPED_VCL = 'deploy/varnish/default.vcl';
export const COMPOSE_FILE = 'deploy/compose.yaml';
export const COMPOSE_VCL = 'deploy/compose/varnish.vcl';

interface ComposeService {
  networks?: string[] | Record<string, { ipv4_address?: string } | null>;
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  networks?: Record<string, { ipam?: { config?: { subnet?: string }[] } } | null>;
}

export interface EdgeNetwork {
  /** The network Varnish shares with the instances, and its range. */
  name: string;
  subnet: string;
  varnish: string;
  /** The instances' compose names and fixed addresses, in file order. */
  sites: { service: string; address: string }[];
}

const addressOn = (service: ComposeService, network: string) =>
  Array.isArray(service.networks) ? undefined : service.networks?.[network]?.ipv4_address;

/** Where Varnish and the instances are in the compose file (`merge`: it uses YAML merge keys). */
export function edgeNetwork(composeYaml: string): EdgeNetwork {
  const compose = parse(composeYaml, { merge: true }) as ComposeFile;
  const varnish = compose.services.varnish;
  if (!varnish?.networks || Array.isArray(varnish.networks)) throw new Error('the varnish service has no network with a fixed address');
  const name = Object.keys(varnish.networks)[0]!;
  const subnet = compose.networks?.[name]?.ipam?.config?.[0]?.subnet;
  const varnishAddress = addressOn(varnish, name);
  if (!subnet || !varnishAddress) throw new Error(`the ${name} network needs a subnet and Varnish a fixed address on it`);
  const sites = Object.entries(compose.services).flatMap(([service, definition]) => {
    const address = service === 'varnish' ? undefined : addressOn(definition, name);
    return address ? [{ service, address }] : [];
  });
  if (sites.length === 0) throw new Error(`no instance has a fixed address on the ${name} network`);
  return { name, subnet, varnish: varnishAddress, sites };
}

/** Replaces exactly one occurrence, so that a change in the shipped VCL's shape fails loudly. */
function replaceOnce(text: string, pattern: RegExp, replacement: (match: RegExpExecArray) => string): string {
  const matches = [...text.matchAll(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))];
  if (matches.length !== 1) throw new Error(`${SHIPPED_VCL}: expected one match of ${pattern}, found ${matches.length}`);
  const match = matches[0]!;
  return text.slice(0, match.index) + replacement(match) + text.slice(match.index + match[0].length);
}

const backendName = (service: string) => service.replace(/[^A-Za-z0-9_]/g, '_');

export function composeVcl(shippedVcl: string, composeYaml: string): string {
  const edge = edgeNetwork(composeYaml);
  const [subnetAddress, bits] = edge.subnet.split('/');
  let vcl = replaceOnce(shippedVcl, /^import xkey;$/m, () => 'import xkey;\nimport directors;');
  vcl = replaceOnce(vcl, /^backend site \{\n {2}\.host = "127\.0\.0\.1";\n {2}\.port = "3000";\n([\s\S]*?)^\}\n/m, (match) => {
    const settings = match[1]!;
    const backends = edge.sites.map(
      (site) =>
        `# ${site.service} in ${COMPOSE_FILE}\nbackend ${backendName(site.service)} {\n  .host = "${site.address}";\n  .port = "3000";\n${settings}}\n`,
    );
    const adds = edge.sites.map((site) => `  sites.add_backend(${backendName(site.service)});`);
    return [
      ...backends,
      '# Each request goes to the next healthy instance.',
      'sub vcl_init {',
      '  new sites = directors.round_robin();',
      ...adds,
      '}',
      '',
      'sub vcl_recv {',
      '  set req.backend_hint = sites.backend();',
      '}',
      '',
    ].join('\n');
  });
  vcl = replaceOnce(vcl, /^acl purgers \{\n([\s\S]*?)^\}$/m, (match) => `acl purgers {\n${match[1]}  "${subnetAddress}"/${bits};\n}`);
  const header = [
    `# Generated from ${SHIPPED_VCL} for ${COMPOSE_FILE} by \`npx tsx scripts/write-compose-vcl.ts\`; do not edit.`,
    `# Backends: ${edge.sites.map((s) => `${s.service} (${s.address}:3000)`).join(', ')}, round-robin; purges also from ${edge.subnet}.`,
  ];
  return `${header.join('\n')}\n${vcl}`;
}
