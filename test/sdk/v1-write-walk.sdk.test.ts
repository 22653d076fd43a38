// SDK 1.0.1 (`@polar-sh/sdk-1`) calls every create, update, delete and action method (POST, PATCH, PUT,
// DELETE) of each API version against a freshly seeded organization: each answer is compared with the
// SDK's declared type, and a bad body (or path id) must come back as the error class the SDK maps for
// it, with a body of that class's type. The GET methods are test/sdk/v1-walk.sdk.test.ts's.
// How to read a failure: docs/sdk-compatibility.md#reading-a-failure
import { clientMethods, SDK_VERSIONS, type SdkVersion, sdkDeclarations } from '../support/sdk-types/declarations.js';
import { GET_CALLS } from '../support/sdk-walk/calls.js';
import { seedWalkOrganization } from '../support/sdk-walk/seed.js';
import type { Outcome } from '../support/sdk-walk/walk.js';
import type { WriteCaller } from '../support/sdk-walk/write-call.js';
import { WRITE_CALLS } from '../support/sdk-walk/write-calls.js';
import { seedWriteExtras, type WriteWorld } from '../support/sdk-walk/write-seed.js';
import { walkWrites } from '../support/sdk-walk/write-walk.js';
import { type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * Methods whose route the service does not have yet, with why; each must answer 404 (to its valid
 * call; they take no bad one). When one is built, this test fails on it: move it out of the table.
 */
const NOT_YET_BUILT: Record<string, string> = {};

/**
 * Methods that exist but cannot be walked here: their answer is pinned so a change shows. SDK 1.0.1's
 * `requestToken`, `revokeToken` and `introspectToken` send no body at all (the generator dropped their
 * form bodies), so any server, Polar's too, answers 400 `invalid_request`. A retried payment needs an
 * order whose payment failed: it answers its documented refusal instead.
 */
const NOT_WALKED: Record<string, Outcome> = {
  'oauth2.requestToken': ['HTTP 400 PolarClientError'],
  'oauth2.revokeToken': ['HTTP 400 PolarClientError'],
  'oauth2.introspectToken': ['HTTP 400 PolarClientError'],
  'customerPortal.orders.confirmRetryPayment': ['HTTP 422 OrderNotEligibleForRetry'],
};

/** Statuses other than 404 of methods not built yet: a path that exists for another method answers 405. */
const NOT_YET_BUILT_STATUS: Record<string, number> = {};

/**
 * Where SDK 1.0.1's type is wrong and the answer is right (docs/sdk-compatibility.md#sdk-type-defects):
 * the 422 class of `verifyEmailUpdate` declares its body `null`, while a 422 has Polar's validation body.
 */
const SDK_TYPE_DEFECTS: Record<string, Outcome> = {
  'customerPortal.customers.verifyEmailUpdate': ['bad $: expected null, found object'],
};

/** What the walk must observe for one method in one version. */
function expectedOutcome(method: string): Outcome {
  if (NOT_YET_BUILT[method]) return [`HTTP ${NOT_YET_BUILT_STATUS[method] ?? 404}`];
  if (NOT_WALKED[method]) return NOT_WALKED[method];
  const bad = WRITE_CALLS[method].bad;
  return ['ok', ...(bad ? [`bad: ${bad.error ?? 'HTTPValidationError'}`] : []), ...(SDK_TYPE_DEFECTS[method] ?? [])];
}

/** A method not built yet is told by its status alone (the SDK's class for it varies by method). */
const statusOnly = (method: string, outcome: Outcome): Outcome =>
  NOT_YET_BUILT[method] ? outcome.map(line => line.split(' ').slice(0, 2).join(' ')) : outcome;

let stack: TestStack;

beforeAll(async () => {
  stack = await sharedTestStack();
}, 180_000);

describe.each(SDK_VERSIONS)('SDK 1.0.1 write methods, API version %s', (version: SdkVersion) => {
  let world: WriteWorld;
  beforeAll(async () => {
    // Each version writes to its own organization: a delete in one version leaves the next one whole.
    world = await seedWriteExtras(stack, await seedWalkOrganization(stack));
  }, 180_000);

  it('has a call for every method of the client that is not a GET, and none for a method it lacks', () => {
    const methods = clientMethods(sdkDeclarations(version)).filter(m => !/\.iter[A-Z]/.test(m));
    expect(methods.filter(m => !GET_CALLS[m] && !WRITE_CALLS[m])).toEqual([]);
    expect(Object.keys(WRITE_CALLS).filter(m => !methods.includes(m))).toEqual([]);
  });

  it('answers every write with its declared type, refuses a bad body with the mapped error, 404 where not built', async () => {
    const { createPolar } = await import(`@polar-sh/sdk-1/${version}`);
    const client = (accessToken: string) =>
      createPolar({ accessToken, baseUrl: stack.sandbox.baseUrl }) as Record<string, unknown>;
    const clients: Record<WriteCaller, Record<string, unknown>> = {
      organization: client(world.owner.oat),
      portal: client(world.customerSession),
      seatPortal: client(world.seatSession),
      individualPortal: client(world.individualSession),
      anonymous: client(world.owner.oat),
      user: client(world.owner.pat),
    };
    const outcomes = Object.fromEntries(
      Object.entries(await walkWrites(sdkDeclarations(version), clients, client, WRITE_CALLS, world)).map(
        ([method, outcome]) => [method, statusOnly(method, outcome)],
      ),
    );
    if (process.env.SDK_WALK_PRINT) console.log(JSON.stringify(outcomes, null, 1));
    const expected = Object.fromEntries(Object.keys(WRITE_CALLS).map(m => [m, expectedOutcome(m)]));
    const matching = Object.values(outcomes).filter(o => o[0] === 'ok').length;
    console.log(
      `${version}: ${Object.keys(outcomes).length} write methods called, ${matching} match their types, ${Object.keys(NOT_YET_BUILT).length} not yet built`,
    );
    expect(outcomes).toEqual(expected);
  }, 240_000);
});
