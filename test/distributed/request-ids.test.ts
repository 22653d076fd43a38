import { randomUUID } from 'node:crypto';
import { systemClock } from '../../kit/clock.js';
import { IdentityAdmin } from '../../subgraphs/identity/admin.js';
import { createTenant, type RunningEnvironment, TEST_SECRET } from '../support/stack.js';
import { identityRuntime, logsOf, type Part, parts, rest, useDistributedStack } from './support.js';

/**
 * docs/observability.md#request-ids in the distributed topology: the REST adapter takes a sane
 * `X-Request-Id` (else makes one), echoes it, and every process the request passes through (the
 * adapter, identity for the principal, the gateway, the subgraph that answers) writes it into its JSON
 * log lines; every line the adapter writes while serving the request carries it.
 */
useDistributedStack();

type Line = Record<string, unknown> & { msg?: string; requestId?: string };

const part = (name: string) => parts.find(p => p.name === name)!;
const lines = (p: Part, from = 0): Line[] =>
  p.output.slice(from).flatMap(text => {
    try {
      return [JSON.parse(text) as Line];
    } catch {
      return [];
    }
  });

/** Waits until `name` has logged its `request` line for `requestId` (log lines reach us asynchronously). */
async function requestLine(name: string, requestId: string): Promise<Line> {
  const p = part(name);
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const line = lines(p).find(l => l.msg === 'request' && l.requestId === requestId);
    if (line) return line;
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  throw new Error(`${name} logged no request line for ${requestId}\n${logsOf(p)}`);
}

/** A list with a token the adapter has not seen, so its principal is asked of identity (not cached). */
async function list(headers: Record<string, string>): Promise<Response> {
  const admin = new IdentityAdmin(identityRuntime!.orm, identityRuntime!.services, systemClock, TEST_SECRET);
  const { oat } = await createTenant({ admin, baseUrl: rest.url } as unknown as RunningEnvironment);
  const res = await fetch(`${rest.url}/v1/products/?limit=1`, {
    headers: { authorization: `Bearer ${oat}`, ...headers },
  });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  return res;
}

describe('request ids across processes', () => {
  it("keeps the caller's id, echoes it, and every process it passes through logs it", async () => {
    const requestId = `req-${randomUUID()}`;
    const before = part('rest-adapter').output.length;
    const res = await list({ 'x-request-id': requestId });
    expect(res.headers.get('x-request-id')).toBe(requestId);

    expect(await requestLine('rest-adapter', requestId)).toMatchObject({ path: '/v1/products/', status: 200 });
    // The bearer resolved by identity's principal endpoint; the operation through the gateway to billing.
    expect(await requestLine('identity', requestId)).toMatchObject({ path: '/internal/principal', status: 200 });
    expect(await requestLine('gateway', requestId)).toMatchObject({ path: '/graphql', status: 200 });
    expect(await requestLine('billing', requestId)).toMatchObject({ path: '/graphql', status: 200 });
    // Nothing else runs in the adapter meanwhile: each line it wrote for this request carries the id.
    const written = lines(part('rest-adapter'), before);
    expect(written.length).toBeGreaterThan(0);
    expect(written.filter(l => l.requestId !== requestId)).toEqual([]);
  });

  it('replaces an id that does not look like one, and makes one when there is none, across processes too', async () => {
    const cases: Record<string, string>[] = [{ 'x-request-id': `bad id ${'x'.repeat(200)}` }, {}];
    for (const headers of cases) {
      const res = await list(headers);
      const requestId = res.headers.get('x-request-id') ?? '';
      expect(requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      for (const name of ['rest-adapter', 'identity', 'gateway', 'billing']) await requestLine(name, requestId);
    }
  });

  it('writes JSON only: every line of every process parses', () => {
    for (const p of parts) {
      const text = p.output.filter(line => line.trim() !== '' && !line.startsWith('(node:'));
      expect({ part: p.name, notJson: text.filter(line => lines({ ...p, output: [line] }).length === 0) }).toEqual({
        part: p.name,
        notJson: [],
      });
    }
  });
});
