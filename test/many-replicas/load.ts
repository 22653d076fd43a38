import { randomUUID } from 'node:crypto';
import { readBack, type SentCreate, sendCreate } from '../support/creates-under-kill.js';
import type { ReplicatedTopology } from './replicated-topology.js';

type Api = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

export interface Create extends SentCreate {
  /** When it was sent: before the kill, while the killed replicas were dying, or once they were gone. */
  sent: 'before' | 'during' | 'after';
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
const MAX_CREATES = 2_000;

/**
 * Eight clients create products with unique names through the adapters' Service, one request each at
 * a time. Once 40 are acknowledged, replica 0 of every pair (identity, billing, webhooks, gateway, REST
 * adapter, webhook worker) is killed with SIGKILL, all at once; the clients go on (the Services route
 * around the dead, docs/kubernetes.md#many-replicas) until 60 more are acknowledged after every killed
 * process has exited: counts, not clocks. No create is retried: one that got no answer may or may not
 * exist, and must not exist twice. Then the products are read back through the Service
 * (test/support/creates-under-kill.ts).
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
    await sendCreate(entry, body => api('POST', '/v1/products/', body));
  };
  // A bound on the creates: were every answer a quick failure (a Service routing to nothing), the clients
  // would otherwise go on for ever, and the assertions on what came back say what went wrong.
  const clients = Array.from({ length: CLIENTS }, async () => {
    while (!(phase === 'after' && acknowledged('after') >= AFTER) && creates.length < MAX_CREATES) await create();
  });
  const killer = (async () => {
    while (acknowledged('before') < BEFORE && creates.length < MAX_CREATES) await new Promise(r => setTimeout(r, 5));
    phase = 'during';
    const victims = Object.values(stack.replicas).map(pair => pair[0]);
    for (const part of victims) part.child.kill('SIGKILL');
    await Promise.all(victims.map(part => part.exit));
    phase = 'after';
  })();
  await Promise.all([...clients, killer]);

  const { doubled, missing, unasked } = await readBack(stack.api, stack.seller.oat, `load-${run}-`, creates);
  return {
    clients: CLIENTS,
    creates,
    failedAfterKill: creates.filter(c => c.sent === 'after' && c.outcome !== 201),
    failedInFlight: creates.filter(c => c.sent !== 'after' && c.outcome !== 201),
    doubled,
    missing,
    unasked,
  };
}
