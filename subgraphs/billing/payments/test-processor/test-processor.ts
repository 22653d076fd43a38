import { randomBytes } from 'node:crypto';
import type { EntityManager, EntityName } from '@mikro-orm/postgresql';
import type { Clock } from '../../../../kit/clock.js';
import { normalizeCurrency } from '../../../../kit/money/currency.js';
import { IdempotencyKeyReused, InvalidPaymentMethod, PaymentProcessorRequestRejected } from '../payment.errors.js';
import type {
  CancelInput,
  CancelOutcome,
  ChargeInput,
  ChargeOutcome,
  CreateCustomerInput,
  PaymentMethodDetails,
  PaymentProcessor,
  ProcessorCustomer,
  ProcessorSetup,
  RefundInput,
  RefundOutcome,
  SavePaymentMethodInput,
  SetupOutcome,
  ProcessorDispute,
} from '../payment-processor.js';
import { TestProcessorCharge } from './test-charge.entity.js';
import { cancelCharge, TestChallenges } from './test-challenge.js';
import { TestProcessorCustomer } from './test-customer.entity.js';
import {
  AUTHENTICATION_REQUIRED,
  TEST_CARD_EXPIRY,
  type TestCard,
  testCard,
  unknownTestCardMessage,
} from './test-payment-methods.js';
import { testMethodName } from './test-card-numbers.js';
import { TestProcessorPaymentMethod } from './test-payment-method.entity.js';
import { TestProcessorRefund } from './test-refund.entity.js';
import { TestProcessorRepository } from './test-processor.repository.js';

/**
 * The built-in processor: always the sandbox's, and production's when `PAYMENT_PROCESSOR=test`.
 * Its payment methods are Stripe's test names (`test-payment-methods.ts`). Every operation is a row
 * in the billing schema, committed in its OWN transaction (like a call to Stripe, it is not undone
 * when the caller's transaction rolls back), unique by the idempotency key: the row is inserted with
 * `ON CONFLICT DO NOTHING` and read back, so the same key twice — even at the same moment — returns
 * the first outcome and never charges twice.
 */
export class TestPaymentProcessor implements PaymentProcessor {
  readonly name = 'test' as const;

  /** `em`: any EntityManager of the billing ORM; each operation forks its own. */
  constructor(
    private readonly em: EntityManager,
    private readonly clock: Clock,
  ) {}

  /** The simulated 3-D Secure challenges of this ledger (the sandbox's challenge page). */
  challenges(): TestChallenges {
    return new TestChallenges(this.em);
  }

  async createCustomer(input: CreateCustomerInput): Promise<ProcessorCustomer> {
    const row = await this.insertOnce(TestProcessorCustomer, {
      id: newId('cus_test'),
      idempotencyKey: input.idempotencyKey,
      email: input.email,
      name: input.name,
      metadata: input.metadata ?? {},
      createdAt: this.clock.now(),
    });
    if (row.email !== input.email || row.name !== input.name) throw new IdempotencyKeyReused(input.idempotencyKey);
    return { id: row.id };
  }

  async savePaymentMethod(input: SavePaymentMethodInput): Promise<SetupOutcome> {
    const token = testMethodName(input.paymentMethod.token);
    const card = this.cardOf(token, input.paymentMethod.field);
    await this.requireCustomer(input.customerId);
    const id = newId('pm_test');
    const row = await this.insertOnce(TestProcessorPaymentMethod, {
      id,
      idempotencyKey: input.idempotencyKey,
      customerId: input.customerId,
      testMethod: token,
      status: card.setup ? 'failed' : card.authenticate ? 'requires_action' : 'saved',
      clientSecret: !card.setup && card.authenticate ? clientSecretOf(`seti_${id}`) : null,
      brand: card.brand,
      last4: card.last4,
      ...TEST_CARD_EXPIRY,
      failureCode: card.setup?.code ?? null,
      declineCode: card.setup?.declineCode ?? null,
      failureMessage: card.setup?.message ?? null,
      metadata: input.metadata ?? {},
      createdAt: this.clock.now(),
    });
    if (row.customerId !== input.customerId || row.testMethod !== token)
      throw new IdempotencyKeyReused(input.idempotencyKey);
    if (row.status === 'requires_action')
      return { status: 'requires_action', setupId: `seti_${row.id}`, clientSecret: row.clientSecret! };
    if (row.status === 'failed')
      return {
        status: 'failed',
        setupId: `seti_${row.id}`,
        failure: { code: row.failureCode!, declineCode: row.declineCode, message: row.failureMessage! },
      };
    return { status: 'succeeded', setupId: `seti_${row.id}`, paymentMethod: { ...detailsOf(row), id: row.id } };
  }

  async charge(input: ChargeInput): Promise<ChargeOutcome> {
    if (input.amount <= 0n) throw new PaymentProcessorRequestRejected('A charge must be of a positive amount.');
    const currency = normalizeCurrency(input.currency);
    const method = input.paymentMethod;
    let testMethod: string;
    let savedMethod: TestProcessorPaymentMethod | null = null;
    if (method.kind === 'saved') {
      savedMethod = await new TestProcessorRepository(this.em.fork()).findSavedMethod(method.id);
      if (!savedMethod || savedMethod.customerId !== input.customerId)
        throw new InvalidPaymentMethod(method.id, 'Payment method does not exist.', method.field);
      testMethod = savedMethod.testMethod;
    } else {
      testMethod = testMethodName(method.token);
      if (input.customerId) await this.requireCustomer(input.customerId);
    }
    const card = this.cardOf(testMethod, method.field);
    // 3-D Secure: asked of the customer on-session; off-session nobody can answer, so it is declined.
    const failure = card.charge ?? (card.authenticate && input.offSession ? AUTHENTICATION_REQUIRED : null);
    const challenge = !failure && card.authenticate === true;
    const keep = method.kind === 'new' && input.saveForLater === true && !failure && input.customerId !== null;
    const chargeId = newId('ch_test');
    // A charge alone is one insert that commits by itself (then the row that holds the key): no
    // transaction round trips for it; keeping the card as well is two rows, written together.
    const write = <T>(work: (em: EntityManager) => Promise<T>): Promise<T> =>
      keep ? this.em.fork().transactional(work) : work(this.em.fork());
    const row = await write(async em => {
      const ledger = new TestProcessorRepository(em);
      const charge = await ledger.insertIgnoringDuplicate(TestProcessorCharge, {
        id: chargeId,
        idempotencyKey: input.idempotencyKey,
        customerId: input.customerId,
        paymentMethodId: savedMethod?.id ?? null,
        savedPaymentMethodId: null,
        testMethod,
        amount: input.amount,
        currency,
        status: failure ? 'failed' : challenge ? 'requires_action' : 'succeeded',
        clientSecret: challenge ? clientSecretOf(chargeId) : null,
        brand: card.brand,
        last4: card.last4,
        ...TEST_CARD_EXPIRY,
        failureCode: failure?.code ?? null,
        declineCode: failure?.declineCode ?? null,
        failureMessage: failure?.message ?? null,
        offSession: input.offSession,
        description: input.description ?? null,
        metadata: input.metadata ?? {},
        amountRefunded: 0n,
        createdAt: this.clock.now(),
      });
      // Only the call that inserted the charge keeps the method; a replay returns what it kept.
      if (keep && charge.id === chargeId) {
        const saved = await ledger.insertIgnoringDuplicate(TestProcessorPaymentMethod, {
          id: newId('pm_test'),
          idempotencyKey: `${input.idempotencyKey}#payment_method`,
          customerId: input.customerId!,
          testMethod,
          // Kept only once the customer authenticates (the challenge settles both rows).
          status: challenge ? 'requires_action' : 'saved',
          clientSecret: null,
          brand: card.brand,
          last4: card.last4,
          ...TEST_CARD_EXPIRY,
          failureCode: null,
          declineCode: null,
          failureMessage: null,
          metadata: {},
          createdAt: this.clock.now(),
        });
        charge.savedPaymentMethodId = saved.id;
        await ledger.setChargeSavedMethod(charge.id, saved.id);
      }
      return charge;
    });
    if (
      row.amount !== input.amount ||
      row.currency !== currency ||
      row.customerId !== input.customerId ||
      row.testMethod !== testMethod ||
      row.paymentMethodId !== (savedMethod?.id ?? null)
    )
      throw new IdempotencyKeyReused(input.idempotencyKey);
    const details: PaymentMethodDetails = {
      ...detailsOf(row),
      id: row.paymentMethodId ?? row.savedPaymentMethodId,
    };
    if (row.status === 'requires_action')
      return { status: 'requires_action', chargeId: row.id, clientSecret: row.clientSecret!, paymentMethod: details };
    if (row.status === 'failed')
      return {
        status: 'failed',
        chargeId: row.id,
        failure: { code: row.failureCode!, declineCode: row.declineCode, message: row.failureMessage! },
        paymentMethod: details,
      };
    return {
      status: 'succeeded',
      chargeId: row.id,
      amount: row.amount,
      currency: row.currency,
      paymentMethod: details,
    };
  }

  async refund(input: RefundInput): Promise<RefundOutcome> {
    if (input.amount <= 0n) throw new PaymentProcessorRequestRejected('A refund must be of a positive amount.');
    const refundId = newId('re_test');
    const row = await this.em.fork().transactional(async em => {
      // The charge row is the lock: refunds of one charge run one at a time, so two of them can
      // never together exceed the charge (the CHECK constraint is the last line of defence).
      const ledger = new TestProcessorRepository(em);
      const charge = await ledger.lockCharge(input.chargeId);
      if (charge?.status !== 'succeeded')
        throw new PaymentProcessorRequestRejected(`No succeeded charge ${input.chargeId} to refund.`);
      const replay = await ledger.findRefundByKey(input.idempotencyKey);
      if (replay) return replay;
      if (charge.amountRefunded + input.amount > charge.amount)
        throw new PaymentProcessorRequestRejected(
          `Refund of ${input.amount} exceeds what is left of charge ${charge.id} (${charge.amount - charge.amountRefunded}).`,
        );
      const refund = await ledger.insertIgnoringDuplicate(TestProcessorRefund, {
        id: refundId,
        idempotencyKey: input.idempotencyKey,
        chargeId: charge.id,
        amount: input.amount,
        currency: charge.currency,
        reason: input.reason ?? null,
        status: 'succeeded',
        metadata: input.metadata ?? {},
        createdAt: this.clock.now(),
      });
      if (refund.id === refundId) await ledger.setAmountRefunded(charge.id, charge.amountRefunded + input.amount);
      return refund;
    });
    if (row.chargeId !== input.chargeId || row.amount !== input.amount)
      throw new IdempotencyKeyReused(input.idempotencyKey);
    return { status: 'succeeded', refundId: row.id, amount: row.amount, currency: row.currency };
  }

  /** An abandoned 3-D Secure charge: canceled, so its challenge fails (test-challenge.ts). */
  cancel(input: CancelInput): Promise<CancelOutcome> {
    return cancelCharge(this.em, input.chargeId);
  }

  /** A setup of this ledger (`seti_<pm id>`) as it is now. */
  /**
   * The test processor keeps no dispute of its own (the sandbox opens them, disputes/sandbox-disputes.ts):
   * conceding one settles it as lost, as Stripe does.
   */
  async closeDispute(disputeId: string): Promise<Pick<ProcessorDispute, 'disputeId' | 'status'>> {
    return { disputeId, status: 'lost' };
  }

  async findSetup(setupId: string): Promise<ProcessorSetup | null> {
    if (!setupId.startsWith('seti_')) return null;
    const row = await new TestProcessorRepository(this.em.fork()).findMethod(setupId.slice('seti_'.length));
    if (!row || row.idempotencyKey.endsWith('#payment_method')) return null;
    const status = row.status === 'saved' ? 'succeeded' : row.status;
    return {
      setupId,
      status,
      processorCustomerId: row.customerId,
      metadata: row.metadata ?? {},
      clientSecret: row.clientSecret,
      paymentMethod: status === 'succeeded' ? { ...detailsOf(row), id: row.id } : null,
    };
  }

  private cardOf(name: string, field: SavePaymentMethodInput['paymentMethod']['field']): TestCard {
    const card = testCard(name);
    if (!card) throw new InvalidPaymentMethod(name, unknownTestCardMessage(), field);
    return card;
  }

  private async requireCustomer(id: string): Promise<void> {
    if (!(await new TestProcessorRepository(this.em.fork()).customerExists(id)))
      throw new PaymentProcessorRequestRejected(`No such customer: ${id}`);
  }

  /** Inserts a row unless its idempotency key exists, in a transaction of its own; returns the row that holds the key. */
  private insertOnce<T extends { idempotencyKey: string }>(entity: EntityName<T>, data: T): Promise<T> {
    return this.em.fork().transactional(em => new TestProcessorRepository(em).insertIgnoringDuplicate(entity, data));
  }
}

function detailsOf(row: { brand: string; last4: string; expMonth: number; expYear: number }): PaymentMethodDetails {
  return { id: null, type: 'card', brand: row.brand, last4: row.last4, expMonth: row.expMonth, expYear: row.expYear };
}

/** Stripe's shape of an intent's client secret: `<intent id>_secret_<random>` (the challenge page's credential). */
function clientSecretOf(intentId: string): string {
  return `${intentId}_secret_${randomBytes(18).toString('base64url').replace(/[-_]/g, '0')}`;
}

/** `ch_test_` + 24 base62-ish characters, as Stripe's ids look. */
function newId(prefix: string): string {
  return `${prefix}_${randomBytes(18).toString('base64url').replace(/[-_]/g, '0')}`;
}
