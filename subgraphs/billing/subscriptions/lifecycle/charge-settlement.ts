import type { ChargeOutcomeHandler } from '../../payments/processor-outcome-handlers.js';
import { settleAttempt, Stamp } from './renewal-billing.js';
import { RenewalQueries } from './renewal.queries.js';

/**
 * A renewal's or dunning retry's charge that was in flight (3-D Secure, bank debits) has settled: its
 * order goes where an immediate outcome would have taken it (`settleAttempt`: paid and the subscription
 * active again, or the decline handed to dunning). Registered with the payments at composition.
 */
export const renewalChargeSettlement: ChargeOutcomeHandler = {
  async prepare(em, order) {
    if (!order.subscriptionId) return null;
    // The subscription after its order, before the payment: the lock order of a dunning retry.
    const s = await new RenewalQueries(em).lockSubscription(order.subscriptionId);
    if (!s) return null;
    return async ({ outcome, idempotencyKey, now }) => {
      if (order.status !== 'pending') return;
      const { attempt, automatic } = attemptOf(idempotencyKey);
      await settleAttempt(em, s, order, attempt, outcome, new Stamp(now), automatic);
    };
  },
};

/**
 * Which attempt a payment was, from its processor key: `charge:subscription:<id>:<period start>:<n>`
 * for the automatic ones (renewals and dunning retries), `charge:order:<id>:manual:<n>` for the
 * customer's own.
 */
function attemptOf(key: string): { attempt: number; automatic: boolean } {
  const attempt = Number(key.slice(key.lastIndexOf(':') + 1)) || 1;
  return { attempt, automatic: key.startsWith('charge:subscription:') };
}
