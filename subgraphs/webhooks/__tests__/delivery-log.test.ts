// The delivery log (`GET /v1/webhooks/deliveries`) reads through the shared read path
// (kit/database/read/, deliveries/webhook-delivery.read.ts; docs/data-access.md). This checks every
// page it serves against the seeded rows themselves, for every kind of principal, every filter and
// their combinations, and pages that need the count statement and pages past the end: the same rows,
// the same order (newest first, the id breaking ties), the same totals as the log has always answered.
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { systemClock } from '../../../kit/clock.js';
import { PolarRequestValidationError } from '../../../kit/errors.js';
import type { Principal } from '../../../kit/principal.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { ALL_SCOPES } from '../../../kit/scopes.js';
import { createTestDatabase } from '../../../test/support/database.js';
import type { DeliveryFilters } from '../deliveries/webhook-delivery.read.js';
import { WebhookDeliveryService } from '../deliveries/webhook-delivery.service.js';
import type { WebhookDeliveryType } from '../deliveries/webhook-delivery.type.js';
import { openWebhooksOrm } from '../orm.js';

const ORG_A = randomUUID();
const ORG_B = randomUUID();
const TYPES = ['customer.created', 'subscription.created', 'subscription.updated', 'order.paid'];
const STATUSES = ['succeeded', 'failed', 'pending', 'skipped'];
const CODES = [200, 204, 301, 404, 500, null];
/** 2026-01-01T00:00:00Z in microseconds: timestamps are seeded with microseconds, served in milliseconds. */
const BASE_US = Date.UTC(2026, 0, 1) * 1000;

interface SeededDelivery {
  organizationId: string;
  createdUs: number;
  served: WebhookDeliveryType;
}

let orm: MikroORM;
let drop: () => Promise<void>;
const endpoints: { id: string; organizationId: string }[] = [];
const seeded: SeededDelivery[] = [];

/** `2026-01-01T00:00:01.123456Z`: PostgreSQL keeps the microseconds. */
function isoMicros(us: number): string {
  return `${new Date(Math.floor(us / 1000)).toISOString().slice(0, -1)}${String(us % 1000).padStart(3, '0')}Z`;
}

const literal = (value: string | number | boolean | null): string =>
  value === null ? 'null' : typeof value === 'string' ? `'${value.replace(/'/g, "''")}'` : String(value);

beforeAll(async () => {
  const database = await createTestDatabase('delivery_log');
  drop = database.drop;
  orm = await openWebhooksOrm(database.url, 2);
  for (const organizationId of [ORG_A, ORG_A, ORG_B]) endpoints.push({ id: randomUUID(), organizationId });
  const statements: string[] = [];
  for (const e of endpoints)
    statements.push(
      `insert into webhooks.endpoints (id, organization_id, url, format, secret, events, enabled, created_at)
       values ('${e.id}', '${e.organizationId}', 'https://example.com/hook', 'raw', 'whsec_x', '{}', true, now())`,
    );
  let n = 0;
  for (let i = 0; i < 12; i++) {
    const organizationId = i < 9 ? ORG_A : ORG_B;
    const type = TYPES[i % TYPES.length];
    // Payload text the `query` filter searches, with ilike's own wildcards to be matched literally.
    const note = i % 5 === 0 ? '50%_off\\now' : `Plain note ${i}`;
    const payload = JSON.stringify({ type, data: { id: `obj-${i}`, note } });
    const eventId = randomUUID();
    statements.push(
      `insert into webhooks.events (id, source_event_id, organization_id, type, sequence, timestamp, payload, created_at)
       values ('${eventId}', '${randomUUID()}', '${organizationId}', '${type}', ${i}, now(), ${literal(payload)}, now())`,
    );
    for (const [j, endpoint] of endpoints.filter(e => e.organizationId === organizationId).entries()) {
      const status = STATUSES[(i + j) % STATUSES.length];
      const messageId = randomUUID();
      const messageUs = BASE_US + i * 1_000_000 + 654_321;
      const modifiedUs = status === 'pending' ? null : messageUs + 10_000_987;
      const lastHttpCode = status === 'succeeded' ? 200 : status === 'failed' ? 500 : null;
      statements.push(
        `insert into webhooks.messages (id, event_id, endpoint_id, organization_id, event_position, status, attempts,
                                        next_attempt_at, last_http_code, created_at, modified_at)
         values ('${messageId}', '${eventId}', '${endpoint.id}', '${organizationId}', ${i}, '${status}', 0, now(),
                 ${literal(lastHttpCode)}, '${isoMicros(messageUs)}', ${modifiedUs === null ? 'null' : `'${isoMicros(modifiedUs)}'`})`,
      );
      const finished = status === 'succeeded' || status === 'failed';
      for (let attempt = 1; attempt <= 1 + ((i + j) % 3); attempt++, n++) {
        const id = randomUUID();
        // Two attempts share each timestamp: the id breaks the tie.
        const createdUs = BASE_US + Math.floor(n / 2) * 1_000_123 + 456;
        const httpCode = CODES[n % CODES.length];
        const succeeded = httpCode !== null && httpCode < 300;
        const response = n % 2 ? `body ${n}` : null;
        const error = httpCode === null ? 'timeout' : null;
        statements.push(
          `insert into webhooks.deliveries (id, message_id, endpoint_id, organization_id, attempt, succeeded, http_code,
                                            response, duration_ms, error, created_at)
           values ('${id}', '${messageId}', '${endpoint.id}', '${organizationId}', ${attempt}, ${succeeded},
                   ${literal(httpCode)}, ${literal(response)}, ${n * 3}, ${literal(error)}, '${isoMicros(createdUs)}')`,
        );
        seeded.push({
          organizationId,
          createdUs,
          served: {
            id,
            createdAt: new Date(Math.floor(createdUs / 1000)),
            modifiedAt: null,
            succeeded,
            httpCode,
            response,
            durationMs: n * 3,
            error,
            endpointId: endpoint.id,
            webhookEvent: {
              id: messageId,
              createdAt: new Date(Math.floor(messageUs / 1000)),
              modifiedAt: modifiedUs === null ? null : new Date(Math.floor(modifiedUs / 1000)),
              lastHttpCode,
              succeeded: finished ? status === 'succeeded' : null,
              skipped: status === 'skipped',
              payload,
              type,
              // Seeded without an endpoint version: the default's body.
              apiVersion: '2026-04',
              isArchived: false,
            },
          },
        });
      }
    }
  }
  const connection = orm.em.fork().getConnection();
  for (const sql of statements) await connection.execute(sql);
}, 60_000);

afterAll(async () => {
  await orm?.close();
  await drop?.();
});

const base = { scopes: [...ALL_SCOPES], tokenId: null };
const principals: Record<string, Principal> = {
  organizationToken: {
    ...base,
    subject: 'organization',
    subjectId: ORG_A,
    credential: 'organization_access_token',
    organizationIds: [ORG_A],
  },
  userOfBoth: {
    ...base,
    subject: 'user',
    subjectId: randomUUID(),
    credential: 'personal_access_token',
    organizationIds: [ORG_A, ORG_B],
  },
  userOfB: {
    ...base,
    subject: 'user',
    subjectId: randomUUID(),
    credential: 'personal_access_token',
    organizationIds: [ORG_B],
  },
  userOfNone: {
    ...base,
    subject: 'user',
    subjectId: randomUUID(),
    credential: 'personal_access_token',
    organizationIds: [],
  },
  customer: {
    ...base,
    subject: 'customer',
    subjectId: randomUUID(),
    credential: 'customer_session',
    organizationIds: [ORG_A],
  },
};

/** What the log must answer, from the seeded rows: the filters' semantics written out once more. */
function expected(principal: Principal, f: DeliveryFilters, page: number, limit: number) {
  const readable = principal.subject === 'customer' ? [] : principal.organizationIds;
  const query = f.query?.toLowerCase();
  const rows = seeded
    .filter(d => readable.includes(d.organizationId))
    .filter(d => !f.endpointIds?.length || f.endpointIds.includes(d.served.endpointId))
    .filter(d => !f.start || d.createdUs >= f.start.getTime() * 1000)
    .filter(d => !f.end || d.createdUs <= f.end.getTime() * 1000)
    .filter(d => f.succeeded == null || d.served.succeeded === f.succeeded)
    .filter(d => {
      if (!f.httpCodeClass) return true;
      const low = Number(f.httpCodeClass[0]) * 100;
      return d.served.httpCode !== null && d.served.httpCode >= low && d.served.httpCode < low + 100;
    })
    .filter(d => !f.eventTypes?.length || f.eventTypes.includes(d.served.webhookEvent.type))
    .filter(
      d =>
        !query ||
        d.served.webhookEvent.type.toLowerCase().includes(query) ||
        (d.served.webhookEvent.payload ?? '').toLowerCase().includes(query),
    )
    .sort((a, b) => b.createdUs - a.createdUs || (a.served.id < b.served.id ? 1 : -1));
  return {
    items: rows.slice((page - 1) * limit, page * limit).map(d => d.served),
    pagination: { totalCount: rows.length, maxPage: Math.ceil(rows.length / limit) },
  };
}

async function list(principal: Principal, filters: DeliveryFilters, page: number, limit: number) {
  const ctx = { em: orm.em.fork(), principal, clock: systemClock, requestId: 'delivery-log-test' };
  return new WebhookDeliveryService().list(ctx as RequestContext, { ...filters, page, limit });
}

const at = (us: number) => new Date(Math.floor(us / 1000));
const FILTERS: Record<string, () => DeliveryFilters> = {
  none: () => ({}),
  nulls: () => ({ endpointIds: null, start: null, end: null, succeeded: null, query: null, eventTypes: null }),
  'empty lists and query': () => ({ endpointIds: [], eventTypes: [], query: '' }),
  'one endpoint': () => ({ endpointIds: [endpoints[0].id] }),
  'two endpoints': () => ({ endpointIds: [endpoints[1].id, endpoints[2].id] }),
  'an unknown endpoint': () => ({ endpointIds: [randomUUID()] }),
  // Bounds inside a delivery's millisecond: its microseconds decide, as in SQL.
  start: () => ({ start: at(BASE_US + 7 * 1_000_123 + 456) }),
  end: () => ({ end: at(BASE_US + 9 * 1_000_123 + 456) }),
  'start and end': () => ({ start: at(BASE_US + 3 * 1_000_123), end: at(BASE_US + 12 * 1_000_123) }),
  succeeded: () => ({ succeeded: true }),
  failed: () => ({ succeeded: false }),
  '2xx': () => ({ httpCodeClass: '2xx' }),
  '3xx': () => ({ httpCodeClass: '3xx' }),
  '4xx': () => ({ httpCodeClass: '4xx' }),
  '5xx': () => ({ httpCodeClass: '5xx' }),
  'one event type': () => ({ eventTypes: ['order.paid'] }),
  'two event types': () => ({ eventTypes: ['customer.created', 'subscription.updated'] }),
  'query on the type, any case': () => ({ query: 'SUBSCRIPTION' }),
  'query on the payload': () => ({ query: 'plain NOTE 4' }),
  'query with % and _ taken literally': () => ({ query: '50%_off' }),
  'query %': () => ({ query: '%' }),
  'query _': () => ({ query: '_' }),
  'query \\': () => ({ query: '\\' }),
  'query matching nothing': () => ({ query: 'nothing-like-this' }),
  combined: () => ({
    endpointIds: [endpoints[0].id, endpoints[1].id],
    start: at(BASE_US + 1_000_123),
    succeeded: false,
    httpCodeClass: '5xx',
    eventTypes: ['customer.created', 'subscription.created', 'order.paid'],
    query: 'obj',
  }),
};
const WINDOWS = [
  { page: 1, limit: 10 },
  { page: 2, limit: 10 },
  { page: 1, limit: 100 },
  { page: 3, limit: 7 },
  { page: 1, limit: 1 },
  { page: 50, limit: 5 },
];

describe('delivery log (docs/data-access.md)', () => {
  it('seeds enough rows to need counts and ties', () => {
    expect(seeded.length).toBeGreaterThan(30);
    expect(new Set(seeded.map(d => d.createdUs)).size).toBeLessThan(seeded.length);
  });

  it('every filter narrows the log to some of its rows (the cases below are not vacuous)', () => {
    const all = expected(principals.userOfBoth, {}, 1, 1).pagination.totalCount;
    const passThrough = ['none', 'nulls', 'empty lists and query'];
    const matchNothing = ['an unknown endpoint', 'query matching nothing'];
    for (const [name, filters] of Object.entries(FILTERS)) {
      const total = expected(principals.userOfBoth, filters(), 1, 1).pagination.totalCount;
      if (passThrough.includes(name)) expect(total).toBe(all);
      else if (matchNothing.includes(name)) expect(total).toBe(0);
      else expect([name, total > 0 && total < all]).toEqual([name, true]);
    }
  });

  for (const [who, principal] of Object.entries(principals))
    for (const [name, filters] of Object.entries(FILTERS))
      it(`${who}, ${name}: the seeded rows, newest first, every page and its totals`, async () => {
        for (const { page, limit } of WINDOWS)
          expect(await list(principal, filters(), page, limit)).toStrictEqual(
            expected(principal, filters(), page, limit),
          );
      });

  it('refuses an unknown code class or event type with a 422, before any statement', async () => {
    await expect(list(principals.userOfBoth, { httpCodeClass: '6xx' }, 1, 10)).rejects.toBeInstanceOf(
      PolarRequestValidationError,
    );
    await expect(list(principals.userOfBoth, { httpCodeClass: '' }, 1, 10)).rejects.toBeInstanceOf(
      PolarRequestValidationError,
    );
    await expect(list(principals.userOfBoth, { eventTypes: ['order.paid', 'nope'] }, 1, 10)).rejects.toBeInstanceOf(
      PolarRequestValidationError,
    );
  });
});
