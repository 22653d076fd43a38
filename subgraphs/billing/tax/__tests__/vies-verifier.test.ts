import { FakeVies } from '../../../../test/support/fake-vies.js';
import { SandboxVatIdVerifier } from '../sandbox-vat-id-verifier.js';
import { ViesVerifier } from '../vies-verifier.js';

const at = new Date('2025-06-01T10:00:00Z');

describe('ViesVerifier against a VIES on loopback', () => {
  const vies = new FakeVies();
  let url: string;
  beforeAll(async () => {
    url = await vies.start();
  });
  afterAll(() => vies.stop());
  beforeEach(() => {
    vies.answers.clear();
    vies.defaultAnswer = 'valid';
    vies.delayMs = 0;
    vies.requests.length = 0;
  });

  it('asks VIES with the country code and the number, and keeps its answer as evidence', async () => {
    const check = await new ViesVerifier({ url }).check(['FR61954506077', 'eu_vat'], at);
    expect(vies.requests).toEqual([{ countryCode: 'FR', vatNumber: '61954506077' }]);
    expect(check).toEqual({
      result: 'valid',
      source: 'vies',
      checked_at: '2025-06-01T10:00:00.000Z',
      reference: 'WAPIAAAA1',
      name: 'ACME SAS',
      address: '1 RUE DE LA PAIX\n75002 PARIS',
    });
  });

  it("sends Greece as EL and keeps undisclosed names as null (VIES's ---)", async () => {
    const check = await new ViesVerifier({ url: `${url}/` }).check(['EL094259216', 'eu_vat'], at);
    expect(vies.requests[0]).toEqual({ countryCode: 'EL', vatNumber: '094259216' });
    vies.requests.length = 0;
    const german = await new ViesVerifier({ url }).check(['DE136695976', 'eu_vat'], at);
    expect(german).toMatchObject({ result: 'valid', name: null, address: null });
    expect(check.result).toBe('valid');
  });

  it('is invalid when VIES says the number is not registered, or refuses it', async () => {
    vies.answers.set('DE136695976', 'invalid');
    vies.answers.set('FR61954506077', { error: 'INVALID_INPUT', status: 400 });
    const verifier = new ViesVerifier({ url });
    expect(await verifier.check(['DE136695976', 'eu_vat'], at)).toMatchObject({ result: 'invalid', reference: null });
    expect(await verifier.check(['FR61954506077', 'eu_vat'], at)).toMatchObject({
      result: 'invalid',
      reference: 'INVALID_INPUT',
    });
  });

  it.each(['MS_UNAVAILABLE', 'TIMEOUT', 'SERVICE_UNAVAILABLE', 'MS_MAX_CONCURRENT_REQ', 'GLOBAL_MAX_CONCURRENT_REQ'])(
    'is inconclusive, not invalid, when VIES answers %s',
    async error => {
      vies.defaultAnswer = { error, status: error === 'MS_UNAVAILABLE' ? 200 : 500 };
      const warnings: unknown[] = [];
      const verifier = new ViesVerifier({ url, logger: { warn: (o: unknown) => warnings.push(o) } as never });
      expect(await verifier.check(['DE136695976', 'eu_vat'], at)).toMatchObject({
        result: 'inconclusive',
        source: 'vies',
        reference: error,
      });
      expect(warnings).toEqual([{ reference: error }]);
    },
  );

  it('is inconclusive on a 5xx without an answer', async () => {
    vies.defaultAnswer = { status: 503 };
    expect(await new ViesVerifier({ url }).check(['DE136695976', 'eu_vat'], at)).toMatchObject({
      result: 'inconclusive',
      reference: 'HTTP_503',
    });
  });

  it('is inconclusive when VIES answers later than the timeout', async () => {
    vies.delayMs = 500;
    const started = Date.now();
    const check = await new ViesVerifier({ url, timeoutMs: 100 }).check(['DE136695976', 'eu_vat'], at);
    expect(check).toMatchObject({ result: 'inconclusive', reference: 'TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(450);
  });

  it('is inconclusive when nothing listens', async () => {
    const closed = new FakeVies();
    const closedUrl = await closed.start();
    await closed.stop();
    expect(await new ViesVerifier({ url: closedUrl }).check(['DE136695976', 'eu_vat'], at)).toMatchObject({
      result: 'inconclusive',
      reference: 'NETWORK_ERROR',
    });
  });

  it('asks nothing about an id that is not an EU VAT id', async () => {
    expect(await new ViesVerifier({ url }).check(['911144442', 'us_ein'], at)).toMatchObject({
      result: 'inconclusive',
    });
    expect(vies.requests).toEqual([]);
  });

  it('uses the injected fetch', async () => {
    const calls: string[] = [];
    const fakeFetch = (async (input: string | URL | Request) => {
      calls.push(String(input));
      return new Response(JSON.stringify({ valid: true, requestIdentifier: 'X1' }), { status: 200 });
    }) as typeof fetch;
    const check = await new ViesVerifier({ url: 'https://vies.example/rest-api', fetch: fakeFetch }).check(
      ['NL004495445B01', 'eu_vat'],
      at,
    );
    expect(calls).toEqual(['https://vies.example/rest-api/check-vat-number']);
    expect(check).toMatchObject({ result: 'valid', reference: 'X1' });
  });
});

describe('SandboxVatIdVerifier: documented test ids, no VIES', () => {
  const sandbox = new SandboxVatIdVerifier();
  it.each([
    ['DE123456788', 'valid'],
    ['FR11123456782', 'valid'],
    ['NL123456782B01', 'valid'],
    ['ESB12345674', 'invalid'],
    ['ATU12345675', 'inconclusive'],
    ['DE136695976', 'inconclusive'], // any other id: not checked
  ])('%s is %s', async (value, result) => {
    expect(await sandbox.check([value, 'eu_vat'], at)).toMatchObject({
      result,
      source: 'sandbox',
      checked_at: at.toISOString(),
    });
  });

  it('has test ids that pass the offline checksum', async () => {
    const { parseTaxId } = await import('../../../../kit/tax/tax-id.js');
    const { SANDBOX_VAT_IDS } = await import('../sandbox-vat-id-verifier.js');
    for (const value of Object.keys(SANDBOX_VAT_IDS)) {
      const country = value.slice(0, 2);
      expect(parseTaxId(value, country)).toEqual([value, 'eu_vat']);
    }
  });

  it('are the ids docs/tax.md documents, with the same answers', async () => {
    const { readFile } = await import('node:fs/promises');
    const { SANDBOX_VAT_IDS } = await import('../sandbox-vat-id-verifier.js');
    const docs = await readFile(new URL('../../../../docs/tax.md', import.meta.url), 'utf8');
    const section = docs.slice(docs.indexOf('## Sandbox test ids'), docs.indexOf('## Stripe Tax'));
    const documented = [...section.matchAll(/^\| `(\w+)` \| `(\w+)` \|$/gm)].map(([, id, result]) => [id, result]);
    expect(Object.fromEntries(documented)).toEqual(SANDBOX_VAT_IDS);
  });
});
