import { randomUUID } from 'node:crypto';
import { everyPage } from '../support/stack.js';
import type { ReplicatedTopology } from './replicated-topology.js';

type Api = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

export interface Create {
  name: string;
  /** When it was sent: before the kill, while the killed replicas were dying, or once they were gone. */
  sent: 'before' | 'during' | 'after';
  /** The status, or `error` when no answer came (the adapter died with it in flight). */
  outcome: number | 'error';
  id?: string;
}

export interface LoadOutcome {
  clients: number;
  creates: Create[];
  /** Anything but a 201 among the creates sent once every killed replica had exited. */
  failedAfterKill: Create[];
  /** Creates sent before or during the kill that were not answered 201. */
  failedInFlight: Create[];
  /** Names that exist more than once. */
  doubled: [string, string[]][];
  /** Acknowledged creates (201) that do not exist with the id they were answered with. */
  missing: Create[];
  /** Products of this run that no client asked for. */
  unasked: string[];
}

const CLIENTS = 8;
const BEFORE = 40;
const AFTER = 60;

/**
 * Eight clients create products with unique names through the adapters' Service, one request each at
 * a time. Once 40 are acknowledged, replica 0 of every pair (identity, billing, webhooks, gateway, REST
 * adapter, webhook worker) is killed with SIGKILL, all at once; the clients go on (the Services route
 * around the dead, docs/kubernetes.md#many-replicas) until 60 more are acknowledged after every killed
 * process has exited: counts, not clocks. No create is retried: one that got no answer may or may not
 * exist, and must not exist twice. Then the products are read back through the Service.
 */
export async function createsUnderLoad(stack: ReplicatedTopology, api: Api): Promise<LoadOutcome> {
  const run = randomUUID().slice(0, 8);
  const creates: Create[] = [];
  let phase: Create['sent'] = 'before';
  let sequence = 0;
  const acknowledged = (sent: Create['sent']) => creates.filter(c => c.sent === sent && c.outcome === 201).length;

  const create = async (): Promise<void> => {
    const entry: Create = { name: `load-${run}-${sequence++}`, sent: phase, outcome: 'error' };
    creates.push(entry);
    try {
      const res = await api('POST', '/v1/products/', {
        name: entry.name,
        recurring_interval: 'month',
        prices: [{ amount_type: 'fixed', price_amount: 1200, price_currency: 'usd' }],
      });
      entry.outcome = res.status;
      entry.id = res.body?.id;
    } catch {
      // No answer: the adapter it reached died with it in flight.
    }
  };
  const clients = Array.from({ length: CLIENTS }, async () => {
    while (!(phase === 'after' && acknowledged('after') >= AFTER)) await create();
  });
  const killer = (async () => {
    while (acknowledged('before') < BEFORE) await new Promise(r => setTimeout(r, 5));
    phase = 'during';
    const victims = Object.values(stack.replicas).map(pair => pair[0]);
    for (const part of victims) part.child.kill('SIGKILL');
    await Promise.all(victims.map(part => part.exit));
    phase = 'after';
  })();
  await Promise.all([...clients, killer]);

  const prefix = `load-${run}-`;
  const listed = (await everyPage(stack.api, '/v1/products/', stack.seller.oat)).filter(p =>
    String(p.name).startsWith(prefix),
  );
  const byName = new Map<string, string[]>();
  for (const product of listed) byName.set(product.name, [...(byName.get(product.name) ?? []), product.id]);
  const asked = new Set(creates.map(c => c.name));
  return {
    clients: CLIENTS,
    creates,
    failedAfterKill: creates.filter(c => c.sent === 'after' && c.outcome !== 201),
    failedInFlight: creates.filter(c => c.sent !== 'after' && c.outcome !== 201),
    doubled: [...byName].filter(([, ids]) => ids.length > 1),
    missing: creates.filter(c => c.outcome === 201 && byName.get(c.name)?.[0] !== c.id),
    unasked: listed.filter(p => !asked.has(p.name)).map(p => p.name),
  };
}
