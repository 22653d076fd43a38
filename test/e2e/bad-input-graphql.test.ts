import { randomUUID } from 'node:crypto';
import { call, type Tenant } from '../support/stack.js';
import { type BadInputWorld, startBadInputWorld } from './support/bad-input-world.js';

/**
 * The bad values of bad-input.test.ts through POST /graphql: GraphQL errors (integers beyond 32 bits,
 * ids that are not UUIDs), never masked internal errors.
 */
let world: BadInputWorld;
let base: string;
let alice: Tenant;
let subscriptionId: string;

beforeAll(async () => {
  world = await startBadInputWorld();
  ({ base, alice, subscriptionId } = world);
});
describe('POST /graphql with the same values', () => {
  const gql = (query: string, variables?: Record<string, unknown>) =>
    call(base, 'POST', '/graphql', { token: alice.oat, body: { query, variables } });

  it('answers a GraphQL error (not an internal one) for an Int beyond 32 bits', async () => {
    const literal = await gql('{ customers(page: 10000000000) { items { id } } }');
    expect(literal.status).toBe(400);
    expect(literal.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const variable = await gql('query($page: Int!) { customers(page: $page) { items { id } } }', {
      page: 10000000000,
    });
    expect(variable.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(variable.body.errors[0].message).toMatch(/Int cannot represent non 32-bit signed integer value/);
  });

  it('serves page 0, negative limits and the last page as empty or clamped pages', async () => {
    const res = await gql(
      '{ a: customers(page: 0, limit: -5) { items { id } } b: customers(page: 2147483647, limit: 2147483647) { items { id } pagination { totalCount } } }',
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.b.items).toEqual([]);
  });

  it('answers BAD_USER_INPUT for a NUL in a string argument or variable', async () => {
    const literal = await gql('{ customers(filter: { query: "a\\u0000b" }) { items { id } } }');
    expect(literal.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const variable = await gql('query($q: String) { customers(filter: { query: $q }) { items { id } } }', {
      q: 'a\u0000b',
    });
    expect(variable.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(variable.body.errors[0].message).toMatch(/NUL/);
  });

  it('answers 422 uuid_parsing for an id that is not a UUID: literal, variable, in a list or an input object', async () => {
    const refused = (res: { body: any }, loc: (string | number)[], input: unknown) => {
      expect(res.body.data ?? null).toBeNull();
      expect(res.body.errors).toHaveLength(1);
      expect(res.body.errors[0].extensions).toMatchObject({
        code: 'RequestValidationError',
        details: [{ type: 'uuid_parsing', loc, msg: 'Input should be a valid UUID', input }],
      });
    };
    refused(await gql('{ product(id: "x") { id } }'), ['body', 'query', 'id'], 'x');
    refused(
      await gql('query($id: ID!) { subscription(id: $id) { id } }', { id: '1' }),
      ['body', 'variables', 'id'],
      '1',
    );
    refused(
      await gql('query($ids: [ID!]) { products(id: $ids) { items { id } } }', { ids: [randomUUID(), 'a,b'] }),
      ['body', 'variables', 'ids', 1],
      'a,b',
    );
    refused(
      await gql(`{ orders(filter: { productId: ["${randomUUID()}", "-created_at"] }) { items { id } } }`),
      ['body', 'query', 'filter', 'productId', 1],
      '-created_at',
    );
    refused(
      await gql('mutation($input: CheckoutCreateInput!) { createCheckout(input: $input) { id } }', {
        input: { products: ['{'] },
      }),
      ['body', 'variables', 'input', 'products', 0],
      '{',
    );
    // Ids as the API writes them pass, in either case.
    const own = await gql(`{ subscription(id: "${subscriptionId.toUpperCase()}") { id } }`);
    expect(own.body).toEqual({ data: { subscription: { id: subscriptionId } } });
  });
});
