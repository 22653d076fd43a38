// What the write walk (test/sdk/v1-write-walk.sdk.test.ts) needs beyond the GET walk's organization:
// a free recurring product (a subscription made by the API must be free), the seat buyer's portal
// session, an individual customer's session (the walk customer is a team, whose e-mail cannot change),
// off-session charges switched on with a saved card (draft orders, docs/selling.md#draft-orders), and
// small REST and SQL helpers its calls use to find what an earlier call made.
import { call, type TestStack } from '../stack.js';
import { firstValue } from '../until.js';
import type { WalkWorld } from './seed.js';

export interface WriteWorld extends WalkWorld {
  /** The seat-based subscription's buyer's customer session (`polar_cst_...`). */
  seatSession: string;
  /** An individual (not team) customer's session: the portal's e-mail change is theirs only. */
  individualSession: string;
  /** A REST call with the organization token; throws on an error status. */
  api: (method: string, path: string, body?: unknown) => Promise<any>;
  /** A SQL read in the environment's billing or webhooks database. */
  sql: <T>(database: 'billing' | 'webhooks', query: string, values: unknown[]) => Promise<T[]>;
  /** The base URL the SDK's client talks to (file parts are PUT to it). */
  baseUrl: string;
}

export async function seedWriteExtras(stack: TestStack, world: WalkWorld): Promise<WriteWorld> {
  const baseUrl = stack.sandbox.baseUrl;
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await call(baseUrl, method, path, { token: world.owner.oat, body });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const sql = <T>(database: 'billing' | 'webhooks', query: string, values: unknown[]) =>
    stack.sandbox.environment[database].orm.em.fork().execute<T[]>(query, values);
  const free = await api('POST', '/v1/products/', {
    name: 'Free monthly',
    recurring_interval: 'month',
    prices: [{ amount_type: 'free' }],
  });
  const seatSubscription = await api('GET', `/v1/subscriptions/${world.ids.seatSubscription}`);
  const seatSession = await api('POST', '/v1/customer-sessions/', { customer_id: seatSubscription.customer_id });
  const individual = await api('POST', '/v1/customers/', { email: 'write-individual@example.com' });
  const individualSession = await api('POST', '/v1/customer-sessions/', { customer_id: individual.id });
  // A draft order is charged off-session to the customer's default card (docs/selling.md#draft-orders).
  await api('PATCH', `/v1/organizations/${world.ids.organization}`, {
    feature_settings: { off_session_charges_enabled: true },
  });
  const card = await call(baseUrl, 'POST', '/v1/customer-portal/customers/me/payment-methods', {
    token: world.customerSession,
    body: { confirmation_token_id: 'pm_card_visa', set_default: true, return_url: 'https://example.com/done' },
  });
  if (card.status >= 300) throw new Error(`saved card: ${card.status} ${card.text}`);
  const [monthlyOrder] = (await api('GET', `/v1/orders/?customer_id=${world.ids.customer}&limit=100`)).items.filter(
    (order: { id: string; billing_address: unknown }) => order.id !== world.ids.order && !order.billing_address,
  );
  return {
    ...world,
    ids: { ...world.ids, freeProduct: free.id, orderWithoutAddress: monthlyOrder?.id ?? 'missing' },
    seatSession: seatSession.token,
    individualSession: individualSession.token,
    api,
    sql,
    baseUrl,
  };
}

/** The first value `probe` gives that is not undefined, probing up to 5 s (work done after a commit). */
export async function eventually<T>(probe: () => Promise<T | undefined>): Promise<T> {
  const value = await firstValue(probe, 5_000);
  if (value !== undefined) return value;
  throw new Error('eventually: nothing after 5 s');
}
