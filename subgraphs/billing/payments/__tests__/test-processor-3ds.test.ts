import type { MikroORM } from '@mikro-orm/postgresql';
import { ManualClock } from '../../../../kit/clock.js';
import { createTestDatabase } from '../../../../test/support/database.js';
import { openBillingOrm } from '../../orm.js';
import { TEST_CARD_NUMBERS } from '../test-processor/test-card-numbers.js';
import { TestChallenges } from '../test-processor/test-challenge.js';
import { TestPaymentProcessor } from '../test-processor/test-processor.js';

/**
 * The test processor's 3-D Secure methods and Stripe's test card numbers (docs/payments.md): on-session
 * charges and setups wait for the challenge (`requires_action`, Stripe's client secret shape), which
 * settles them once; off-session charges are declined `authentication_required`.
 */
let orm: MikroORM;
let drop: () => Promise<void>;
let processor: TestPaymentProcessor;
let challenges: TestChallenges;
const clock = new ManualClock(new Date('2026-11-28T12:00:00Z'));
let n = 0;
const key = (purpose: string) => `${purpose}:3ds:${++n}`;

beforeAll(async () => {
  const db = await createTestDatabase('test_processor_3ds');
  drop = db.drop;
  orm = await openBillingOrm(db.url, 6);
  processor = new TestPaymentProcessor(orm.em, clock);
  challenges = new TestChallenges(orm.em);
});
afterAll(async () => {
  await orm?.close();
  await drop?.();
});

const newCustomer = () => processor.createCustomer({ idempotencyKey: key('customer'), email: 'a@x.io', name: 'A' });
const charge = (token: string, offSession = false, customerId: string | null = null) =>
  processor.charge({
    idempotencyKey: key('charge'),
    amount: 1500n,
    currency: 'eur',
    customerId,
    paymentMethod: { kind: 'new', token },
    offSession,
  });

describe("Stripe's test card numbers", () => {
  it.each([
    ['4242 4242 4242 4242', 'succeeded', '4242'],
    ['5555-5555-5555-4444', 'succeeded', '4444'],
    ['378282246310005', 'succeeded', '8431'],
    ['4000000000000002', 'failed', '0002'],
    ['4000 0000 0000 9995', 'failed', '9995'],
    ['4000002760003184', 'requires_action', '3184'],
    ['4000000000003220', 'requires_action', '3220'],
  ])('%s charges as its test method (%s)', async (number, status, last4) => {
    const outcome = await charge(number);
    expect(outcome.status).toBe(status);
    expect('paymentMethod' in outcome && outcome.paymentMethod?.last4).toBe(last4);
  });

  it('the table is the one of Stripe card numbers the brief names', () => {
    expect(Object.keys(TEST_CARD_NUMBERS)).toHaveLength(8);
  });
});

describe('3-D Secure', () => {
  it.each(['pm_card_threeDSecure2Required', 'pm_card_authenticationRequired'])(
    '%s: on-session requires_action; completing the challenge succeeds the charge once',
    async method => {
      const outcome = await charge(method);
      if (outcome.status !== 'requires_action') throw new Error(outcome.status);
      expect(outcome.clientSecret).toMatch(new RegExp(`^${outcome.chargeId}_secret_\\w+$`));
      expect(await challenges.describe(outcome.clientSecret)).toMatchObject({
        kind: 'charge',
        status: 'requires_action',
        amount: 1500n,
        currency: 'eur',
      });
      const first = await challenges.settle(outcome.clientSecret, true);
      expect(first?.event).toMatchObject({ type: 'charge.succeeded', chargeId: outcome.chargeId });
      // Pressing "Fail" afterwards changes nothing: the same event, the same outcome.
      const again = await challenges.settle(outcome.clientSecret, false);
      expect(again?.event).toEqual(first?.event);
      expect(again?.challenge.status).toBe('succeeded');
    },
  );

  it('a failed challenge fails the charge with Stripe’s authentication failure', async () => {
    const outcome = await charge('pm_card_threeDSecure2Required');
    if (outcome.status !== 'requires_action') throw new Error(outcome.status);
    const settled = await challenges.settle(outcome.clientSecret, false);
    expect(settled?.event).toMatchObject({
      type: 'charge.failed',
      failure: { code: 'payment_intent_authentication_failure' },
    });
  });

  it('off-session the charge is declined authentication_required', async () => {
    const outcome = await charge('pm_card_authenticationRequired', true);
    expect(outcome).toMatchObject({ status: 'failed', failure: { code: 'authentication_required' } });
  });

  it('saving the method requires action too; the challenge saves it', async () => {
    const customer = await newCustomer();
    const outcome = await processor.savePaymentMethod({
      idempotencyKey: key('setup'),
      customerId: customer.id,
      paymentMethod: { kind: 'new', token: 'pm_card_authenticationRequired' },
    });
    if (outcome.status !== 'requires_action') throw new Error(outcome.status);
    const settled = await challenges.settle(outcome.clientSecret, true);
    expect(settled?.event).toMatchObject({
      type: 'setup.succeeded',
      setupId: outcome.setupId,
      paymentMethod: { last4: '3184' },
    });
  });

  it('an unknown client secret is no challenge', async () => {
    expect(await challenges.settle('ch_test_nothing_secret_x', true)).toBeNull();
  });
});
