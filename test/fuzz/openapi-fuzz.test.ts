import { generateKeyPairSync } from 'node:crypto';
import { systemClock } from '../../kit/clock.js';
import fc from 'fast-check';
import pg from 'pg';
import { startTestStack, type TestStack } from '../support/stack.js';
import { credentialFor, Fingerprint, foreignIds, requestContext, seedTenant, type TenantWorld } from './fuzz-world.js';
import {
  type OpenApiDocument,
  type Operation,
  operationsOf,
  type RequestCase,
  requestArbitrary,
} from './openapi-requests.js';
import { type GraphQLCase, GraphQLRequests, SCHEMA_QUERY } from './graphql-requests.js';
import { describeCase, send } from './openapi-send.js';
import { errorShapeProblems, leakProblems } from './response-checks.js';

/**
 * Generated requests for every operation of the served `/openapi.json` (so operations added later are
 * covered without touching this file): valid, boundary and hostile values in every parameter and body
 * field, odd encodings (control characters in signed links, a map parameter also sent plainly), own,
 * foreign and random ids, and on routes anyone may call (capability routes) another organization's
 * credentials of every kind. For each: no 5xx, error bodies in the documented shapes, no other
 * tenant's object in a 2xx answer, and a rejected write (any method but GET and HEAD) changes nothing.
 * Then, for every root field of `POST /graphql` with a string or id argument, enum-like words and
 * malformed ids in those arguments: no 5xx and no masked internal error.
 *
 * Reproducible: the seed is fixed per operation (FUZZ_SEED changes it, FUZZ_RUNS the number of
 * requests per operation).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
/** Methods that read only: their requests skip the no-side-effect comparison. */
const SAFE_METHODS = new Set(['GET', 'HEAD']);
/** Requests per GraphQL root field (about 110 of them): each tries one string or id position. */
const GRAPHQL_RUNS = Math.max(1, Math.round(RUNS / 4));

// Configured as a deployment that takes GitHub's secret-scanning reports and Stripe's webhooks (without
// keys or a signing secret those endpoints answer their documented 503), so generated requests meet the
// header and signature checks.
const githubKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey;
const stack: TestStack = await startTestStack('fuzz', systemClock, {
  STRIPE_WEBHOOK_SECRET: 'whsec_fuzz',
  GITHUB_SECRET_SCANNING_KEYS: JSON.stringify({
    public_keys: [{ key_identifier: 'fuzz', key: githubKey.export({ type: 'spki', format: 'pem' }), is_current: true }],
  }),
});
const base = stack.production.baseUrl;
const doc = (await (await fetch(`${base}/openapi.json`)).json()) as OpenApiDocument;
const operations = operationsOf(doc);
const introspection = (await (
  await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: SCHEMA_QUERY }),
  })
).json()) as { data: { __schema: ConstructorParameters<typeof GraphQLRequests>[0] } };
// The field list is read now (the tests are declared from it); the ids are the worlds', seeded below.
const graphqlIds: string[] = [];
const graphql = new GraphQLRequests(introspection.data.__schema, graphqlIds);
let alice: TenantWorld;
let bob: TenantWorld;
let fingerprint: Fingerprint;
let fingerprintClient: pg.Client;

beforeAll(async () => {
  alice = await seedTenant(stack.production);
  bob = await seedTenant(stack.production);
  graphqlIds.push(...alice.allIds, ...bob.allIds, '6ba7b810-9dad-41d1-80b4-00c04fd430c8');
  // A connection of its own: the ORM's pool sends unnamed statements, planned anew each time.
  fingerprintClient = new pg.Client(stack.production.environment.billing.orm.config.get('clientUrl'));
  await fingerprintClient.connect();
  fingerprint = new Fingerprint(async (text, name) => (await fingerprintClient.query({ text, name })).rows);
  await fingerprint.calibrate(() =>
    Promise.all(
      [alice, bob].flatMap(w => [
        fetch(`${base}/v1/products/`, { headers: { authorization: `Bearer ${w.tenant.oat}` } }),
        fetch(`${base}/v1/organizations/`, { headers: { authorization: `Bearer ${w.tenant.pat}` } }),
        fetch(`${base}/v1/customer-portal/subscriptions/`, { headers: { authorization: `Bearer ${w.customerToken}` } }),
      ]),
    ),
  );
}, 60_000);
afterAll(async () => {
  await fingerprintClient?.end();
  await stack?.close();
});

/** A stable per-operation seed, so adding an operation does not change the others' cases. */
function seedOf(operationId: string): number {
  let hash = SEED;
  for (const ch of operationId) hash = (Math.imul(hash, 31) + ch.charCodeAt(0)) | 0;
  return hash;
}

function printable(c: RequestCase): RequestCase {
  return Object.assign(c, { [fc.toStringMethod]: () => describeCase(c) });
}

it('reads the operations from /openapi.json', () => {
  expect(operations.length).toBeGreaterThan(30);
  expect(operations.map(o => o.operationId)).toContain('organizations:list');
});

it('notices one changed column of one row, and its undoing', async () => {
  const before = await fingerprint.take();
  const { rows } = await fingerprintClient.query<{ id: string }>('select id from billing.products order by id limit 1');
  expect(rows).toHaveLength(1);
  const rename = (name: string) =>
    fingerprintClient.query(`update billing.products set name = ${name} where id = $1`, [rows[0].id]);
  await rename(`name || '!'`);
  expect(await fingerprint.take()).not.toBe(before);
  await rename('left(name, -1)');
  expect(await fingerprint.take()).toBe(before);
});

describe.each(operations.map(o => [`${o.method} ${o.path} (${o.operationId})`, o] as [string, Operation]))(
  '%s',
  (_name, operation) => {
    it('answers generated requests without a 5xx, in documented shapes, without leaks or side effects', async () => {
      // The stored data is compared around the requests that may write: a read (GET, HEAD) has nothing to
      // roll back, and hashing every table after each of its requests was a fifth of this file's time.
      const writes = !SAFE_METHODS.has(operation.method);
      let before = writes ? await fingerprint.take() : '';
      const arbitrary = requestArbitrary(requestContext(doc, alice, bob), operation).map(printable);
      await fc.assert(
        fc.asyncProperty(arbitrary, async c => {
          const reply = await send(base, c, credentialFor(alice, bob, c.token));
          const problems = [
            ...errorShapeProblems(operation, reply),
            ...leakProblems(reply, foreignIds(alice, bob, c.token)),
          ];
          // Another tenant's organization in Polar-Organization is refused before anything runs.
          if (c.token.endsWith('foreign-header') && reply.status < 400)
            problems.push(`a Polar-Organization naming another tenant's organization was answered ${reply.status}`);
          if (writes) {
            const after = await fingerprint.take();
            if (reply.status >= 400 && after !== before) problems.push(`a ${reply.status} answer changed stored data`);
            before = after;
          }
          if (problems.length)
            throw new Error(
              `${problems.join('; ')}\n  response ${reply.status}: ${reply.text.slice(0, 600)}\n  request: ${describeCase(c, 5_000)}`,
            );
        }),
        { seed: seedOf(operation.operationId), numRuns: RUNS, endOnFailure: true },
      );
    }, 120_000);
  },
);

function printableGraphQL(c: GraphQLCase): GraphQLCase {
  return Object.assign(c, { [fc.toStringMethod]: () => `${c.document}  (token: ${c.token}, at ${c.target})` });
}

describe.each(graphql.rootFields().map(f => [`POST /graphql ${f.operation} ${f.name}`, f] as const))(
  '%s',
  (_name, field) => {
    it('answers enum-like words and malformed ids in its string and id arguments without an internal error', async () => {
      await fc.assert(
        fc.asyncProperty(graphql.arbitrary(field).map(printableGraphQL), async c => {
          const token = c.token === 'customer' ? alice.customerToken : alice.tenant.oat;
          const res = await fetch(`${base}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({ query: c.document }),
          });
          const text = await res.text();
          const internal = res.status >= 500 || /"INTERNAL_SERVER_ERROR"/.test(text);
          if (internal)
            throw new Error(`answered ${res.status}: ${text.slice(0, 400)}\n  request: ${c.document.slice(0, 2_000)}`);
        }),
        { seed: seedOf(`graphql:${field.name}`), numRuns: GRAPHQL_RUNS, endOnFailure: true },
      );
    });
  },
);

it('stays healthy after the fuzzing', async () => {
  expect((await fetch(`${base}/healthz`)).status).toBe(200);
  expect((await fetch(`${base}/readyz`)).status).toBe(200);
  // The tables the no-side-effect check covered: the billing objects and the identity ones.
  expect(fingerprint.covered).toEqual(
    expect.arrayContaining(['billing.products', 'billing.customers', 'identity.organizations']),
  );
});
