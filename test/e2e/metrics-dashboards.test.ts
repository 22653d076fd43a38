import { ManualClock } from '../../kit/clock.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * Saved metric dashboards (`/v1/metrics/dashboards`, docs/metrics.md): Polar's create, read, list, update and
 * delete, kept per organization. The numbers they name are metrics-scenario.test.ts's.
 */
jest.setTimeout(120_000);
const wall = new ManualClock(new Date('2029-01-05T12:00:00.000Z'));
let stack: TestStack;
let base: string;
let owner: Tenant;
let other: Tenant;

const api = (method: string, path: string, body?: unknown, token = owner.oat) =>
  call(base, method, path, { token, body });

beforeAll(async () => {
  stack = await sharedTestStack(wall);
  base = stack.sandbox.baseUrl;
  owner = await createTenant(stack.sandbox);
  other = await createTenant(stack.sandbox);
});

describe('dashboards', () => {
  it('are created, read, listed, updated and deleted per organization; another organization gets 404', async () => {
    const created = await api('POST', '/v1/metrics/dashboards', { name: 'Growth', metrics: ['revenue', 'mrr'] });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      created_at: '2029-01-05T12:00:00.000Z',
      modified_at: null,
      name: 'Growth',
      metrics: ['revenue', 'mrr'],
      organization_id: owner.organizationId,
    });
    const id = created.body.id;
    expect((await api('GET', `/v1/metrics/dashboards/${id}`)).body).toEqual(created.body);
    expect((await api('GET', '/v1/metrics/dashboards')).body).toEqual([created.body]);
    const updated = await api('PATCH', `/v1/metrics/dashboards/${id}`, { metrics: ['orders'] });
    expect([updated.status, updated.body.name, updated.body.metrics]).toEqual([200, 'Growth', ['orders']]);

    for (const [method, body] of [['GET'], ['PATCH', { name: 'Mine' }], ['DELETE']] as const) {
      const res = await api(method, `/v1/metrics/dashboards/${id}`, body, other.oat);
      expect([method, res.status]).toEqual([method, 404]);
    }
    expect((await api('GET', '/v1/metrics/dashboards', undefined, other.oat)).body).toEqual([]);

    const tooMany = await api('POST', '/v1/metrics/dashboards', { name: 'x', metrics: Array(11).fill('revenue') });
    expect([tooMany.status, tooMany.body.detail[0].loc]).toEqual([422, ['body', 'metrics']]);
    const unnamed = await api('POST', '/v1/metrics/dashboards', { name: '' });
    expect([unnamed.status, unnamed.body.detail[0].loc]).toEqual([422, ['body', 'name']]);

    expect((await api('DELETE', `/v1/metrics/dashboards/${id}`)).status).toBe(204);
    expect((await api('GET', `/v1/metrics/dashboards/${id}`)).status).toBe(404);
  });
});
