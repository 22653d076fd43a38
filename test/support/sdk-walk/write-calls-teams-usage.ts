// The write walk's calls of members (merchant and portal), usage events, event types, meters and metrics
// dashboards (test/sdk/v1-write-walk.sdk.test.ts), run where write-calls.ts spreads them: after the
// webhooks' calls, before the OAuth clients'.
import { NOWHERE } from './calls.js';
import { badId, id, NOT_A_UUID, type WriteCall } from './write-call.js';
import type { WriteWorld } from './write-seed.js';

export const TEAM_AND_USAGE_CALLS: Record<string, WriteCall> = {
  // Members (docs/members.md): the walk customer is a team, in an organization with seats switched on.
  'customers.members.create': {
    args: w => [w.ids.customer, { email: 'write-member@example.com', name: 'Member One', external_id: 'write-m1' }],
    bad: { args: w => [w.ids.customer, { email: 5 }] },
  },
  'customers.members.createExternal': {
    args: w => [w.ids.externalCustomer, { email: 'write-member-2@example.com', external_id: 'write-m2' }],
    bad: { args: w => [w.ids.externalCustomer, { email: 5 }] },
  },
  'customers.members.update': {
    args: (w, m) => [w.ids.customer, id('customers.members.create')(m), { role: 'billing_manager' }],
    bad: { args: (w, m) => [w.ids.customer, id('customers.members.create')(m), { role: 'boss' }] },
  },
  'customers.members.updateExternal': {
    args: w => [w.ids.externalCustomer, 'write-m2', { name: 'Member Two' }],
    bad: { args: w => [w.ids.externalCustomer, 'write-m2', { name: 5 }] },
  },
  'customers.members.delete': {
    args: (w, m) => [w.ids.customer, id('customers.members.create')(m)],
    bad: { args: w => [w.ids.customer, NOT_A_UUID] },
  },
  'customers.members.deleteExternal': { args: w => [w.ids.externalCustomer, 'write-m2'] },
  // The portal's team: the session is the team's owner.
  'customerPortal.members.addMember': {
    as: 'portal',
    args: () => [{ email: 'write-portal-member@example.com', name: 'Portal Member', role: 'member' }],
    bad: { args: () => [{ email: 5 }] },
  },
  'customerPortal.members.updateMember': {
    as: 'portal',
    args: (_, m) => [id('customerPortal.members.addMember')(m), { role: 'billing_manager' }],
    bad: { args: (_, m) => [id('customerPortal.members.addMember')(m), { role: 'boss' }] },
  },
  'customerPortal.members.removeMember': {
    as: 'portal',
    args: (_, m) => [id('customerPortal.members.addMember')(m)],
    bad: badId,
  },

  // Usage (docs/usage-events.md, docs/meters.md) and metrics dashboards (docs/metrics.md).
  'events.ingest': {
    args: w => [{ events: [{ name: 'write.walk', customer_id: w.ids.customer, metadata: { step: 1 } }] }],
    bad: { args: () => [{ events: [{ name: 5 }] }] },
  },
  'eventTypes.update': {
    args: async w => [await eventTypeId(w, 'walk.completion'), { label: 'Walk completion' }],
    bad: { args: async w => [await eventTypeId(w, 'walk.completion'), { label: 5 }] },
  },
  'meters.create': {
    args: () => [
      {
        name: 'Write walk meter',
        filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'write.walk' }] },
        aggregation: { func: 'count' },
      },
    ],
    bad: { args: () => [{ name: 5, filter: { conjunction: 'and', clauses: [] }, aggregation: { func: 'count' } }] },
  },
  'meters.update': {
    args: (_, m) => [id('meters.create')(m), { name: 'Write walk meter 2' }],
    bad: { args: (_, m) => [id('meters.create')(m), { name: 5 }] },
  },
  'metrics.createDashboard': {
    args: () => [{ name: 'Write walk', metrics: ['revenue'] }],
    bad: { args: () => [{ name: 5 }] },
  },
  'metrics.updateDashboard': {
    args: (_, m) => [id('metrics.createDashboard')(m), { name: 'Write walk 2', metrics: ['revenue', 'orders'] }],
    bad: { args: (_, m) => [id('metrics.createDashboard')(m), { name: 5 }] },
  },
  'metrics.deleteDashboard': { args: (_, m) => [id('metrics.createDashboard')(m)], bad: badId },
};

/** The id of the organization's event type named `name` (its events were ingested by the seed). */
async function eventTypeId(w: WriteWorld, name: string): Promise<string> {
  const page = await w.api('GET', '/v1/event-types/?limit=100');
  return page.items.find((type: { name: string }) => type.name === name)?.id ?? NOWHERE;
}
