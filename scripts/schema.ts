import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { composeServices } from '@apollo/composition';
import { printSubgraphSchema } from '@apollo/subgraph';
import { diff, CriticalityLevel } from '@graphql-inspector/core';
import { buildSchema, type GraphQLSchema, parse } from 'graphql';
import { projectRoot } from '../kit/paths.js';
import { BILLING_SUBGRAPH, buildBillingSchema } from '../subgraphs/billing/schema.js';
import { buildIdentitySchema, IDENTITY_SUBGRAPH } from '../subgraphs/identity/schema.js';
import { buildWebhooksSchema, WEBHOOKS_SUBGRAPH } from '../subgraphs/webhooks/schema.js';

/** Every subgraph: its name, where the distributed topology reaches it, and how to build its schema. */
export const SUBGRAPHS = [
  { name: IDENTITY_SUBGRAPH, url: 'http://identity:4001/graphql', build: buildIdentitySchema },
  { name: BILLING_SUBGRAPH, url: 'http://billing:4002/graphql', build: buildBillingSchema },
  { name: WEBHOOKS_SUBGRAPH, url: 'http://webhooks:4003/graphql', build: buildWebhooksSchema },
];

// The committed files in the project's schema/ folder (not the copy that the build puts in dist/).
const schemaDir = path.join(projectRoot(), 'schema');
export const subgraphFile = (name: string) => path.join(schemaDir, 'subgraphs', `${name}.graphql`);
export const supergraphFile = path.join(schemaDir, 'supergraph.graphql');

export interface SchemaArtefacts {
  subgraphs: Record<string, string>;
  supergraph: string;
  /** The client-facing schema of the supergraph (no join directives), for validating operations. */
  api: GraphQLSchema;
}

/** Emits each subgraph's SDL and composes them, as the committed files should read. */
export async function produceSchemas(): Promise<SchemaArtefacts> {
  const subgraphs: Record<string, string> = {};
  for (const subgraph of SUBGRAPHS)
    subgraphs[subgraph.name] = `${printSubgraphSchema(await subgraph.build()).trim()}\n`;
  const result = composeServices(
    SUBGRAPHS.map(s => ({ name: s.name, url: s.url, typeDefs: parse(subgraphs[s.name]) })),
  );
  if (result.errors?.length) {
    throw new Error(`Composition failed:\n${result.errors.map(e => `  - ${e.message}`).join('\n')}`);
  }
  return {
    subgraphs,
    supergraph: `${result.supergraphSdl!.trim()}\n`,
    api: result.schema!.toAPISchema().toGraphQLJSSchema(),
  };
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** Breaking changes of the client-facing API between two supergraphs (@graphql-inspector). */
export async function breakingChanges(before: string, after: string): Promise<string[]> {
  if (!before) return [];
  const changes = await diff(
    buildSchema(before, { assumeValidSDL: true }),
    buildSchema(after, { assumeValidSDL: true }),
  );
  return changes.filter(c => c.criticality.level === CriticalityLevel.Breaking).map(c => c.message);
}

/** The files that differ from what the code produces (empty when everything is in sync). */
export async function staleFiles(): Promise<string[]> {
  const produced = await produceSchemas();
  const stale = Object.entries(produced.subgraphs)
    .filter(([name, sdl]) => readOrEmpty(subgraphFile(name)) !== sdl)
    .map(([name]) => subgraphFile(name));
  if (readOrEmpty(supergraphFile) !== produced.supergraph) stale.push(supergraphFile);
  return stale;
}

async function cli(): Promise<void> {
  const write = process.argv.includes('--write');
  const produced = await produceSchemas();
  const breaking = await breakingChanges(readOrEmpty(supergraphFile), produced.supergraph);
  for (const message of breaking) process.stdout.write(`BREAKING: ${message}\n`);
  if (write) {
    for (const [name, sdl] of Object.entries(produced.subgraphs)) writeFileSync(subgraphFile(name), sdl);
    writeFileSync(supergraphFile, produced.supergraph);
    process.stdout.write('schema/: subgraph SDL and supergraph written\n');
    return;
  }
  const stale = await staleFiles();
  if (stale.length) {
    process.stderr.write(
      `Committed schema files differ from the code:\n${stale.map(f => `  ${f}`).join('\n')}\nRun \`npm run schema:write\` and commit.\n`,
    );
    process.exit(1);
  }
  process.stdout.write(
    `schema check passed: ${SUBGRAPHS.length} subgraph(s) compose and match the committed files${breaking.length ? ` (${breaking.length} breaking change(s) listed above)` : ''}\n`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await cli();
