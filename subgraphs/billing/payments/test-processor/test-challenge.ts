import type { EntityManager } from '@mikro-orm/postgresql';
import { PaymentProcessorRequestRejected } from '../payment.errors.js';
import type { CancelOutcome, PaymentFailure, ProcessorEvent } from '../payment-processor.js';
import type { TestProcessorCharge } from './test-charge.entity.js';
import type { TestProcessorPaymentMethod } from './test-payment-method.entity.js';
import { AUTHENTICATION_FAILED, CHARGE_CANCELED } from './test-payment-methods.js';
import { TestProcessorRepository } from './test-processor.repository.js';

/** What the sandbox's challenge page shows: the charge (amount) or the card being saved. */
export interface TestChallenge {
  kind: 'charge' | 'setup';
  /** `requires_action` until the buyer answers; then `succeeded` or `failed` (`canceled`: given up by billing). */
  status: 'requires_action' | 'succeeded' | 'failed' | 'canceled';
  amount: bigint | null;
  currency: string | null;
  brand: string;
  last4: string;
}

/**
 * The test processor's stand-in for a bank's 3-D Secure page (docs/payments.md): a charge or a saved
 * method answered `requires_action` waits in the ledger with its client secret; `settle` moves it to
 * succeeded or failed once (under its row lock, in a transaction of its own, as the processor's own
 * record), and returns the processor event that reports it, with an id derived from the row, so the
 * event is the same however often the buyer presses the button (processor-events.ts applies it once).
 */
export class TestChallenges {
  /** `em`: the ledger's entity manager (test-processor-ledger.ts); each call forks its own. */
  constructor(private readonly em: EntityManager) {}

  async describe(clientSecret: string): Promise<TestChallenge | null> {
    const { charge, method } = await new TestProcessorRepository(this.em.fork()).byClientSecret(clientSecret, false);
    if (charge) return { kind: 'charge', ...chargeView(charge) };
    if (method) return { kind: 'setup', ...methodView(method) };
    return null;
  }

  /** Completes (`succeed`) or fails the challenge; null when no challenge has this secret. */
  settle(clientSecret: string, succeed: boolean): Promise<{ challenge: TestChallenge; event: ProcessorEvent } | null> {
    return this.em.fork().transactional(async em => {
      const ledger = new TestProcessorRepository(em);
      const { charge, method } = await ledger.byClientSecret(clientSecret);
      if (charge) {
        if (charge.status === 'requires_action') {
          settleRow(charge, succeed, 'succeeded');
          const kept = charge.savedPaymentMethodId ? await ledger.lockMethod(charge.savedPaymentMethodId) : null;
          if (kept) settleRow(kept, succeed, 'saved');
          await em.flush();
        }
        return { challenge: { kind: 'charge', ...chargeView(charge) }, event: chargeEvent(charge) };
      }
      if (!method) return null;
      if (method.status === 'requires_action') {
        settleRow(method, succeed, 'saved');
        await em.flush();
      }
      return { challenge: { kind: 'setup', ...methodView(method) }, event: setupEvent(method) };
    });
  }
}

/**
 * Cancels a charge still waiting for its challenge (`canceled`, and the card it would have kept is not
 * kept), so a later answer of the bank page fails; a charge settled already reports what it became.
 * The row's own state makes it idempotent.
 */
export function cancelCharge(em: EntityManager, chargeId: string): Promise<CancelOutcome> {
  return em.fork().transactional(async em => {
    const ledger = new TestProcessorRepository(em);
    const charge = await ledger.lockCharge(chargeId);
    if (!charge) throw new PaymentProcessorRequestRejected(`No such charge: ${chargeId}`);
    if (charge.status === 'requires_action') {
      settleRow(charge, false, 'succeeded', CHARGE_CANCELED);
      charge.status = 'canceled';
      const kept = charge.savedPaymentMethodId ? await ledger.lockMethod(charge.savedPaymentMethodId) : null;
      if (kept?.status === 'requires_action') settleRow(kept, false, 'saved', CHARGE_CANCELED);
      await em.flush();
    }
    if (charge.status === 'succeeded')
      return { status: 'succeeded', chargeId, amount: charge.amount, currency: charge.currency };
    return { status: charge.status, chargeId };
  });
}

function settleRow<S extends string>(
  row: { status: string; failureCode: string | null; declineCode: string | null; failureMessage: string | null },
  succeed: boolean,
  success: S,
  failedWith: PaymentFailure = AUTHENTICATION_FAILED,
): void {
  const failure: PaymentFailure | null = succeed ? null : failedWith;
  row.status = succeed ? success : 'failed';
  row.failureCode = failure?.code ?? null;
  row.declineCode = failure?.declineCode ?? null;
  row.failureMessage = failure?.message ?? null;
}

function failureOf(row: { failureCode: string | null; declineCode: string | null; failureMessage: string | null }) {
  return { code: row.failureCode ?? 'failed', declineCode: row.declineCode, message: row.failureMessage ?? '' };
}

function chargeView(row: TestProcessorCharge): Omit<TestChallenge, 'kind'> {
  return {
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    brand: row.brand,
    last4: row.last4,
  };
}

function methodView(row: TestProcessorPaymentMethod): Omit<TestChallenge, 'kind'> {
  return {
    status: row.status === 'saved' ? 'succeeded' : row.status,
    amount: null,
    currency: null,
    brand: row.brand,
    last4: row.last4,
  };
}

function chargeEvent(row: TestProcessorCharge): ProcessorEvent {
  const common = {
    eventId: `evt_test_${row.id}`,
    chargeId: row.id,
    amount: row.amount,
    currency: row.currency,
    metadata: row.metadata ?? {},
  };
  return row.status === 'succeeded'
    ? { type: 'charge.succeeded', ...common }
    : { type: 'charge.failed', ...common, failure: failureOf(row) };
}

function setupEvent(row: TestProcessorPaymentMethod): ProcessorEvent {
  const succeeded = row.status === 'saved';
  return {
    type: succeeded ? 'setup.succeeded' : 'setup.failed',
    eventId: `evt_test_seti_${row.id}`,
    setupId: `seti_${row.id}`,
    paymentMethod: succeeded
      ? {
          id: row.id,
          type: 'card',
          brand: row.brand,
          last4: row.last4,
          expMonth: row.expMonth,
          expYear: row.expYear,
        }
      : null,
    failure: succeeded ? null : failureOf(row),
    metadata: {},
  };
}
