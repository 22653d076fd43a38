import { charges, metricsOn } from '../../../kit/metrics/metrics.js';
import type { PaymentProcessor } from './payment-processor.js';

/**
 * The environment's processor with every `charge` counted by its outcome (`polar_charges_total`,
 * docs/observability.md): checkouts, renewals, dunning retries and draft orders all charge through it.
 * A charge that throws (processor unreachable, refused configuration) is counted as `error`.
 */
export function countingCharges(processor: PaymentProcessor, environment: string): PaymentProcessor {
  const charge: PaymentProcessor['charge'] = async input => {
    if (!metricsOn()) return processor.charge(input);
    try {
      const outcome = await processor.charge(input);
      charges.inc({ environment, outcome: outcome.status });
      return outcome;
    } catch (error) {
      charges.inc({ environment, outcome: 'error' });
      throw error;
    }
  };
  return new Proxy(processor, {
    get(target, property) {
      if (property === 'charge') return charge;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
