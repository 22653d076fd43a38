import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DomainError, PolarRequestValidationError, ResourceNotFound } from '../../errors.js';
import { createLogger } from '../../logger.js';
import { signInternalRequest } from '../internal-auth.js';
import { createRouterServer, GRAPHQL_INTERNAL_ERROR } from '../router.js';
import { type RpcContract, signedRpcClient, signedRpcRoutes } from '../signed-rpc.js';

/**
 * The signed JSON RPC helper over real HTTP on loopback: what a contract's client gets back for a
 * result, nothing, a caller's error and a failure, and what the server refuses.
 */
interface Greeter {
  greet(name: string, punctuation: string | null): Promise<{ text: string }>;
  forget(name: string): Promise<void>;
  find(id: string): Promise<never>;
  validate(slug: string): Promise<never>;
  explode(): Promise<never>;
}

const CONTRACT: RpcContract<Greeter> = {
  prefix: '/internal/greeter',
  methods: { greet: true, forget: true, find: true, validate: true, explode: true },
};
const KEY = 'k'.repeat(40);
const forgotten: string[] = [];

class InProcessGreeter implements Greeter {
  private readonly greeting = 'Hello';
  async greet(name: string, punctuation: string | null) {
    return { text: `${this.greeting}, ${name}${punctuation ?? '.'}` };
  }
  async forget(name: string) {
    forgotten.push(name);
  }
  async find(id: string): Promise<never> {
    throw new ResourceNotFound(`No ${id}`);
  }
  async validate(slug: string): Promise<never> {
    throw new PolarRequestValidationError([{ type: 'value_error', loc: ['body', 'slug'], msg: 'Taken.', input: slug }]);
  }
  async explode(): Promise<never> {
    throw new Error('database password is hunter2');
  }
}

let server: Server;
let base: string;

beforeAll(async () => {
  const routes = signedRpcRoutes(CONTRACT, new InProcessGreeter(), KEY, createLogger('silent'));
  server = createRouterServer(routes, createLogger('silent'), () => GRAPHQL_INTERNAL_ERROR);
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise(resolve => server.close(resolve));
});

describe('signedRpcClient against signedRpcRoutes', () => {
  const client = () => signedRpcClient(CONTRACT, base, KEY);

  it('returns the result, with the implementation as `this` and null arguments kept', async () => {
    expect(await client().greet('Ada', '!')).toEqual({ text: 'Hello, Ada!' });
    expect(await client().greet('Ada', null)).toEqual({ text: 'Hello, Ada.' });
  });

  it('returns undefined for a method that returns nothing, after it ran', async () => {
    expect(await client().forget('Bob')).toBeUndefined();
    expect(forgotten).toContain('Bob');
  });

  it("rethrows a caller's error as the same DomainError class, with its details", async () => {
    const notFound = await client()
      .find('x')
      .catch(error => error);
    expect(notFound).toBeInstanceOf(ResourceNotFound);
    expect(notFound).toMatchObject({ code: 'ResourceNotFound', status: 404, message: 'No x' });

    const invalid = await client()
      .validate('acme')
      .catch(error => error);
    expect(invalid).toBeInstanceOf(PolarRequestValidationError);
    expect(invalid.details).toEqual([{ type: 'value_error', loc: ['body', 'slug'], msg: 'Taken.', input: 'acme' }]);
  });

  it('turns any other failure into a plain Error that carries no internals', async () => {
    const failure = await client()
      .explode()
      .catch(error => error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(DomainError);
    expect(failure.message).toContain('answered 500');
    expect(failure.message).not.toContain('hunter2');
  });

  it('fails as a plain Error when the keys differ (a deployment fault, not the caller)', async () => {
    const wrong = await signedRpcClient(CONTRACT, base, `other-${KEY}`)
      .greet('Ada', null)
      .catch(error => error);
    expect(wrong).toBeInstanceOf(Error);
    expect(wrong).not.toBeInstanceOf(DomainError);
    expect(wrong.message).toContain('answered 401 (UNAUTHENTICATED)');
  });
});

describe('signedRpcRoutes', () => {
  const post = (path: string, body: string, headers: Record<string, string>) =>
    fetch(`${base}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

  it('refuses an unsigned call before running anything', async () => {
    const before = forgotten.length;
    const res = await post('/internal/greeter/forget', '{"args":["Eve"]}', {});
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: { code: 'UNAUTHENTICATED', message: expect.any(String), status: 401 },
    });
    expect(forgotten.length).toBe(before);
  });

  it('answers 400 for a signed body without an args array, and 404 for a method outside the contract', async () => {
    const body = '{"name":"Ada"}';
    const bad = await post(
      '/internal/greeter/greet',
      body,
      signInternalRequest('POST', '/internal/greeter/greet', body, KEY),
    );
    expect(bad.status).toBe(400);
    const args = '{"args":[]}';
    const unknown = await post(
      '/internal/greeter/constructor',
      args,
      signInternalRequest('POST', '/internal/greeter/constructor', args, KEY),
    );
    expect(unknown.status).toBe(404);
  });
});
