import { everyPage } from './stack.js';

/**
 * Creates sent while a replica is killed, and what they left behind, for the tests that kill one
 * (test/replicas/replicas-truth.test.ts, test/many-replicas/load.ts). No create is retried: one that got
 * no answer may or may not exist, and must not exist twice.
 */
export interface SentCreate {
  name: string;
  /** The status, or `error` when no answer came (the process it reached died with it in flight). */
  outcome: number | 'error';
  id?: string;
}

/** Sends one create of a monthly product named `entry.name` with `post` and records its answer in `entry`. */
export async function sendCreate(
  entry: SentCreate,
  post: (body: unknown) => Promise<{ status: number; body: any }>,
): Promise<void> {
  try {
    const res = await post({
      name: entry.name,
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 1200, price_currency: 'usd' }],
    });
    entry.outcome = res.status;
    entry.id = res.body?.id;
  } catch {
    // No answer: the process it reached died with it in flight.
  }
}

export interface ReadBack<C extends SentCreate> {
  /** The ids of each listed product of the run, by name. */
  byName: Map<string, string[]>;
  /** Names that exist more than once. */
  doubled: [string, string[]][];
  /** Acknowledged creates (201) that do not exist with the id they were answered with. */
  missing: C[];
  /** Products of the run that no create asked for. */
  unasked: string[];
}

/** Lists the products named `prefix…` through `baseUrl` and sets them against the creates sent. */
export async function readBack<C extends SentCreate>(
  baseUrl: string,
  token: string,
  prefix: string,
  creates: C[],
): Promise<ReadBack<C>> {
  const listed = (await everyPage(baseUrl, '/v1/products/', token)).filter(p => String(p.name).startsWith(prefix));
  const byName = new Map<string, string[]>();
  for (const product of listed) byName.set(product.name, [...(byName.get(product.name) ?? []), product.id]);
  const asked = new Set(creates.map(c => c.name));
  return {
    byName,
    doubled: [...byName].filter(([, ids]) => ids.length > 1),
    missing: creates.filter(c => c.outcome === 201 && byName.get(c.name)?.[0] !== c.id),
    unasked: listed.filter(p => !asked.has(p.name)).map(p => p.name),
  };
}
