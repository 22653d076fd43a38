import type { EntityManager } from '@mikro-orm/postgresql';
import { systemClock } from '../../../../kit/clock.js';
import { loadConfig } from '../../../../kit/config.js';
import { PaymentProcessorNotConfigured } from '../payment.errors.js';
import {
  choosePaymentProcessor,
  createPaymentProcessor,
  describePaymentProcessor,
} from '../payment-processor.selection.js';

/** Which processor each environment gets from the configuration, and what the operator is told. */
const config = (env: Record<string, string>) => loadConfig(env);
const live = 'sk_live_abc123';
const testKey = 'sk_test_abc123';

describe('choosePaymentProcessor', () => {
  it.each([
    ['sandbox, nothing set', 'test', {}, 'sandbox'],
    ['sandbox, even with Stripe keys', 'test', { STRIPE_SECRET_KEY: live }, 'sandbox'],
    [
      'sandbox, even with PAYMENT_PROCESSOR=stripe',
      'test',
      { PAYMENT_PROCESSOR: 'stripe', STRIPE_SECRET_KEY: live },
      'sandbox',
    ],
    ['production, nothing set', 'none', {}, 'production'],
    ['production, Stripe key', 'stripe', { STRIPE_SECRET_KEY: live }, 'production'],
    [
      'production, PAYMENT_PROCESSOR=stripe',
      'stripe',
      { PAYMENT_PROCESSOR: 'stripe', STRIPE_SECRET_KEY: testKey },
      'production',
    ],
    ['production, PAYMENT_PROCESSOR=test on purpose', 'test', { PAYMENT_PROCESSOR: 'test' }, 'production'],
    [
      'production, test wins over keys when asked',
      'test',
      { PAYMENT_PROCESSOR: 'test', STRIPE_SECRET_KEY: live },
      'production',
    ],
    ['production, empty values are unset', 'none', { PAYMENT_PROCESSOR: '', STRIPE_SECRET_KEY: '' }, 'production'],
  ] as const)('%s → %s', (_name, expected, env, environment) => {
    expect(choosePaymentProcessor(config(env), environment).processor).toBe(expected);
  });

  it('the configuration refuses PAYMENT_PROCESSOR=stripe without a key, and a key that is not a secret key', () => {
    expect(() => config({ PAYMENT_PROCESSOR: 'stripe' })).toThrow(
      /PAYMENT_PROCESSOR: PAYMENT_PROCESSOR=stripe needs STRIPE_SECRET_KEY/,
    );
    expect(() => config({ STRIPE_SECRET_KEY: 'pk_live_publishable' })).toThrow(
      /STRIPE_SECRET_KEY: must be a Stripe secret key/,
    );
    expect(() => config({ PAYMENT_PROCESSOR: 'paypal' })).toThrow(/PAYMENT_PROCESSOR/);
    expect(() => config({ STRIPE_PUBLISHABLE_KEY: 'sk_live_abc' })).toThrow(
      /STRIPE_PUBLISHABLE_KEY: must be a Stripe publishable key/,
    );
    expect(() => config({ STRIPE_SECRET_KEY: live, STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' })).toThrow(
      /both be live keys or both test keys/,
    );
  });

  it('loads Stripe.js from Stripe unless STRIPE_JS_URL says otherwise', () => {
    expect(config({}).STRIPE_JS_URL).toBe('https://js.stripe.com/v3/');
    expect(config({ STRIPE_JS_URL: 'http://127.0.0.1:9/v3/' }).STRIPE_JS_URL).toBe('http://127.0.0.1:9/v3/');
    expect(() => config({ STRIPE_JS_URL: 'not a url' })).toThrow(/STRIPE_JS_URL/);
  });

  it('a configuration error never prints the key', () => {
    expect(() => config({ STRIPE_SECRET_KEY: 'sk_live_bad key!' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('bad key') }),
    );
  });
});

describe('production without a processor', () => {
  const processor = createPaymentProcessor(choosePaymentProcessor(config({}), 'production'), {
    em: {} as EntityManager,
    clock: systemClock,
  });

  it('refuses a paid charge with an error naming the settings', async () => {
    const attempt = processor.charge({
      idempotencyKey: 'charge:o1:1',
      amount: 1000n,
      currency: 'usd',
      customerId: null,
      paymentMethod: { kind: 'new', token: 'pm_card_visa' },
      offSession: false,
    });
    await expect(attempt).rejects.toBeInstanceOf(PaymentProcessorNotConfigured);
    await expect(attempt).rejects.toMatchObject({
      code: 'PaymentProcessorNotConfigured',
      status: 400,
      message: expect.stringMatching(/STRIPE_SECRET_KEY.*PAYMENT_PROCESSOR=test/),
    });
  });

  it.each(['createCustomer', 'savePaymentMethod', 'refund'] as const)('refuses %s too', async method => {
    await expect((processor[method] as (input: unknown) => Promise<unknown>)({})).rejects.toBeInstanceOf(
      PaymentProcessorNotConfigured,
    );
  });

  it('its name is none', () => {
    expect(processor.name).toBe('none');
  });
});

describe('createPaymentProcessor', () => {
  it('builds the test processor for the sandbox and Stripe for a configured production', () => {
    const deps = { em: {} as EntityManager, clock: systemClock };
    expect(createPaymentProcessor(choosePaymentProcessor(config({}), 'sandbox'), deps).name).toBe('test');
    expect(
      createPaymentProcessor(choosePaymentProcessor(config({ STRIPE_SECRET_KEY: live }), 'production'), deps).name,
    ).toBe('stripe');
  });
});

describe('describePaymentProcessor (for the start-up banner and /readyz)', () => {
  it.each([
    [{}, 'sandbox', { processor: 'test', takesRealMoney: false, warning: null }],
    [
      {},
      'production',
      {
        processor: 'none',
        takesRealMoney: false,
        warning: expect.stringContaining('Set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET'),
      },
    ],
    [
      { PAYMENT_PROCESSOR: 'test' },
      'production',
      {
        processor: 'test',
        summary: expect.stringContaining('PAYMENT_PROCESSOR=test'),
        warning: expect.stringContaining('simulated'),
      },
    ],
    [
      { STRIPE_SECRET_KEY: live, STRIPE_WEBHOOK_SECRET: 'whsec_1', STRIPE_PUBLISHABLE_KEY: 'pk_live_abc' },
      'production',
      { processor: 'stripe', takesRealMoney: true, summary: 'Payments: Stripe (live key)', warning: null },
    ],
    [
      { STRIPE_SECRET_KEY: live, STRIPE_WEBHOOK_SECRET: 'whsec_1' },
      'production',
      {
        processor: 'stripe',
        warning: expect.stringMatching(/^STRIPE_PUBLISHABLE_KEY is not set: the hosted checkout/),
      },
    ],
    [
      { STRIPE_SECRET_KEY: testKey },
      'production',
      { processor: 'stripe', takesRealMoney: false, warning: expect.stringContaining('STRIPE_WEBHOOK_SECRET') },
    ],
  ] as const)('%j in %s', (env, environment, expected) => {
    const description = describePaymentProcessor(config(env), environment);
    expect(description).toMatchObject({ environment, ...expected });
    expect(JSON.stringify(description)).not.toContain('abc123');
  });
});
