import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { call, type Tenant } from '../support/stack.js';
import { type BadInputWorld, startBadInputWorld } from './support/bad-input-world.js';

/**
 * The concrete bad inputs the fuzz test (test/fuzz/) found answering 500, each pinned to its exact
 * 422 body: page and limit that are not integers or out of range, NUL characters, undecodable paths
 * and bodies. The same values through POST /graphql: bad-input-graphql.test.ts.
 */
let world: BadInputWorld;
let base: string;
let alice: Tenant;
let customerToken: string;
let subscriptionId: string;

beforeAll(async () => {
  world = await startBadInputWorld();
  ({ base, alice, customerToken, subscriptionId } = world);
});
const token = (path: string) => (path.startsWith('/v1/customer-portal/') ? customerToken : alice.oat);
const get = (path: string) => call(base, 'GET', path, { token: token(path) });
const invalid = (...detail: unknown[]) => ({ error: 'RequestValidationError', detail });

/** Every paged list, and a string filter of each where a NUL can go. */
const LISTS: [path: string, stringFilter: string][] = [
  ['/v1/organizations/', 'slug'],
  ['/v1/organization-access-tokens/', 'organization_id'],
  ['/v1/customers/', 'query'],
  ['/v1/subscriptions/', 'external_customer_id'],
  ['/v1/products/', 'query'],
  ['/v1/discounts/', 'query'],
  ['/v1/customer-portal/subscriptions/', 'product_id'],
];

describe.each(LISTS)('GET %s', (path, stringFilter) => {
  it('answers 422 int_parsing for page=1e10, page=abc and limit=1e10', async () => {
    for (const [name, value] of [
      ['page', '1e10'],
      ['page', 'abc'],
      ['limit', '1e10'],
    ]) {
      const res = await get(`${path}?${name}=${value}`);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(
        invalid({
          type: 'int_parsing',
          loc: ['query', name],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: value,
        }),
      );
    }
  });

  it('answers 422 greater_than for page=0 and less_than_equal for a page beyond 2^31-1', async () => {
    const zero = await get(`${path}?page=0`);
    expect(zero.status).toBe(422);
    expect(zero.body).toEqual(
      invalid({
        type: 'greater_than',
        loc: ['query', 'page'],
        msg: 'Input should be greater than 0',
        input: '0',
        ctx: { gt: 0 },
      }),
    );
    const huge = await get(`${path}?page=10000000000`);
    expect(huge.status).toBe(422);
    expect(huge.body).toEqual(
      invalid({
        type: 'less_than_equal',
        loc: ['query', 'page'],
        msg: 'Input should be less than or equal to 2147483647',
        input: '10000000000',
        ctx: { le: 2147483647 },
      }),
    );
  });

  it('serves the last possible page and clamps a huge limit to 100', async () => {
    const last = await get(`${path}?page=2147483647&limit=10000000000`);
    expect(last.status).toBe(200);
    expect(last.body.items).toEqual([]);
    expect(last.body.pagination.max_page).toBe(Math.ceil(last.body.pagination.total_count / 100));
  });

  it(`answers 422 for a NUL character in ${stringFilter}=`, async () => {
    const res = await get(`${path}?${stringFilter}=a%00b`);
    expect(res.status).toBe(422);
    const uuidFilter = ['organization_id', 'product_id'].includes(stringFilter);
    expect(res.body).toEqual(
      invalid(
        uuidFilter
          ? {
              type: 'uuid_parsing',
              loc: ['query', stringFilter, ...(stringFilter === 'product_id' ? [0] : [])],
              msg: 'Input should be a valid UUID',
              input: 'a\u0000b',
            }
          : {
              type: 'value_error',
              loc: ['query', stringFilter, ...(stringFilter === 'external_customer_id' ? [0] : [])],
              msg: 'Value error, the NUL character (U+0000) is not allowed',
              input: 'a\u0000b',
            },
      ),
    );
  });

  it('ignores bracketed keys of parameters that are not maps (page[]=2 after page=1)', async () => {
    const res = await get(`${path}?page=1&page[]=2&sorting[0]=x&limit[x]=1`);
    expect(res.status).toBe(200);
  });
});

describe('map-typed query parameters (deepObject)', () => {
  /**
   * Every list of /openapi.json with a deepObject query parameter (`metadata` filters). Routes with a path
   * parameter need a real id and answer no list: the meter quantities' `metadata` is tested in meters.test.ts.
   */
  const deepObjectRoutes = async () => {
    const doc = (await call(base, 'GET', '/openapi.json')).body;
    const found: [path: string, name: string][] = [];
    for (const [path, item] of Object.entries<any>(doc.paths))
      for (const p of item.get?.parameters ?? [])
        if (p.style === 'deepObject' && !path.includes('{')) found.push([path, p.name]);
    return found;
  };

  it('answers 422 record_type for a plain key and its bracketed keys together, in either order', async () => {
    const routes = await deepObjectRoutes();
    expect(routes.map(([path]) => path)).toEqual(expect.arrayContaining(['/v1/customers/', '/v1/subscriptions/']));
    for (const [path, name] of routes)
      for (const query of [`${name}=x&${name}[k]=1`, `${name}[k]=1&${name}=x`, `${name}=x&${name}[k]=1&${name}[j]=2`]) {
        const res = await get(`${path}?${query}`);
        expect({ path, query, status: res.status, body: res.body }).toEqual({
          path,
          query,
          status: 422,
          body: invalid({
            type: 'record_type',
            loc: ['query', name],
            msg: 'Input should be a valid record',
            input: 'x',
          }),
        });
      }
  });

  it("filters by keys named like Object.prototype's members as by any other key", async () => {
    for (const [path, name] of await deepObjectRoutes())
      for (const key of ['constructor', 'toString', 'hasOwnProperty']) {
        const res = await get(`${path}?${name}[${key}]=1&${name}[k]=2`);
        expect({ path, key, status: res.status, items: res.body.items }).toEqual({ path, key, status: 200, items: [] });
      }
  });
});

describe('paths and bodies that cannot be decoded', () => {
  it('answers 422 uuid_parsing for bad percent escapes and non-UTF-8 bytes in an id', async () => {
    for (const [segment, input] of [
      ['%zz', '%zz'],
      ['%', '%'],
      ['%FF%FE', '\ufffd\ufffd'],
    ]) {
      const res = await call(base, 'GET', `/v1/customers/${segment}`, { token: alice.oat });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(
        invalid({ type: 'uuid_parsing', loc: ['path', 'id'], msg: 'Input should be a valid UUID', input }),
      );
    }
  });

  it('answers 422 json_invalid for a body with an unknown encoding or charset, and creates nothing', async () => {
    const before = (await get('/v1/customers/')).body.pagination.total_count;
    const variants: Record<string, string>[] = [
      { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      { 'content-type': 'application/json', 'content-encoding': 'x-unknown' },
      { 'content-type': 'application/json; charset=latin1' },
    ];
    for (const headers of variants) {
      const res = await call(base, 'POST', '/v1/customers/', {
        token: alice.oat,
        headers,
        rawBody: JSON.stringify({ email: `enc-${randomUUID()}@example.com` }),
      });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(
        invalid({
          type: 'json_invalid',
          loc: ['body', 0],
          msg: 'JSON decode error',
          input: {},
          ctx: { error: 'Expecting value' },
        }),
      );
    }
    expect((await get('/v1/customers/')).body.pagination.total_count).toBe(before);
  });

  it('answers 422 for JSON nested deeper than 32 levels, also 100,000 levels', async () => {
    for (const depth of [40, 100_000]) {
      const res = await call(base, 'POST', '/v1/products/', {
        token: alice.oat,
        headers: { 'content-type': 'application/json' },
        rawBody: `${'['.repeat(depth)}${']'.repeat(depth)}`,
      });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(
        invalid({ type: 'json_invalid', loc: ['body'], msg: 'JSON nesting deeper than 32 levels', input: null }),
      );
    }
  });

  it('answers 422 for a NUL in a body string and in a path parameter', async () => {
    const body = await call(base, 'POST', '/v1/customers/', {
      token: alice.oat,
      body: { email: `nul-${randomUUID()}@example.com`, name: 'a\u0000b' },
    });
    expect(body.status).toBe(422);
    expect(body.body).toEqual(
      invalid({
        type: 'value_error',
        loc: ['body', 'name'],
        msg: 'Value error, the NUL character (U+0000) is not allowed',
        input: 'a\u0000b',
      }),
    );
    const path = await call(base, 'GET', '/v1/customers/external/a%00b', { token: alice.oat });
    expect(path.status).toBe(422);
    expect(path.body.detail[0]).toMatchObject({ type: 'value_error', loc: ['path', 'external_id'] });
  });

  it('answers 422 less_than_equal for an integer beyond GraphQL Int, and leaves the subscription alone', async () => {
    const res = await call(base, 'PATCH', `/v1/subscriptions/${subscriptionId}`, {
      token: alice.oat,
      body: { seats: 9007199254740979 },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      invalid({
        type: 'less_than_equal',
        loc: ['body', 'seats'],
        msg: 'Input should be less than or equal to 2147483647',
        input: 9007199254740979,
        ctx: { le: 2147483647 },
      }),
    );
    expect((await get(`/v1/subscriptions/${subscriptionId}`)).body.seats).toBeNull();
  });

  it('answers 422 datetime_parsing for dates on no real day, and accepts every form of a real one', async () => {
    const item = (loc: (string | number)[], input: string) => ({
      type: 'datetime_parsing',
      loc,
      msg: 'Input should be a valid datetime, day value is outside expected range',
      input,
    });
    const query = await get('/v1/subscriptions/?canceled_at_after=2023-02-29T19:29:27Z');
    expect(query.status).toBe(422);
    expect(query.body).toEqual(
      invalid({
        type: 'datetime_from_date_parsing',
        loc: ['query', 'canceled_at_after'],
        msg: 'Input should be a valid datetime',
        input: '2023-02-29T19:29:27Z',
      }),
    );
    const body = await call(base, 'POST', '/v1/discounts/', {
      token: alice.oat,
      body: { name: 'x', type: 'percentage', basis_points: 100, duration: 'once', starts_at: '0000-01-01T00:00:00Z' },
    });
    expect(body.status).toBe(422);
    expect(body.body).toEqual(invalid(item(['body', 'starts_at'], '0000-01-01T00:00:00Z')));
    // Forms zod accepts but the GraphQL DateTimeISO scalar did not (a 500 before): no seconds, far offsets.
    for (const value of ['8728-11-30T22:33', '2026-01-01T00:00:00%2B23:00', '2024-02-29T12:00:00.123456Z'])
      expect((await get(`/v1/subscriptions/?canceled_at_before=${value}`)).status).toBe(200);
  });

  it('answers 422 union_tag_invalid / union_tag_not_found for a bad discriminator', async () => {
    const bad = await call(base, 'POST', '/v1/discounts/', {
      token: alice.oat,
      body: { name: 'x', duration: 'once', type: { toString: 1 } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([
      {
        type: 'union_tag_invalid',
        loc: ['body'],
        msg: "Input tag '{\"toString\":1}' found using 'type' does not match any of the expected tags: 'fixed', 'percentage'",
        input: { name: 'x', duration: 'once', type: { toString: 1 } },
        ctx: { discriminator: "'type'", tag: '{"toString":1}', expected_tags: "'fixed', 'percentage'" },
      },
    ]);
    const missing = await call(base, 'POST', '/v1/discounts/', { token: alice.oat, body: { name: 'x' } });
    expect(missing.body.detail).toEqual([
      {
        type: 'union_tag_not_found',
        loc: ['body'],
        msg: "Unable to extract tag using discriminator 'type'",
        input: { name: 'x' },
        ctx: { discriminator: "'type'" },
      },
    ]);
  });

  it('keeps a request line Node refuses from reaching the app (431, no 500)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(base);
      const req = request({ host: url.hostname, port: url.port, path: `/v1/products/?query=${'a'.repeat(20_000)}` });
      req.setHeader('authorization', `Bearer ${alice.oat}`);
      req.on('response', res => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(431);
  });
});
