import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import type { Config, EnvironmentName } from '../../../kit/config.js';
import { PaymentProcessorNotConfigured } from './payment.errors.js';
import type { PaymentProcessor } from './payment-processor.js';
import { createStripeClient, type StripeClientOptions } from './stripe/stripe-client.js';
import { StripePaymentProcessor } from './stripe/stripe-processor.js';
import { TestPaymentProcessor } from './test-processor/test-processor.js';

type PaymentSettings = Pick<Config, 'PAYMENT_PROCESSOR' | 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET'> &
  Partial<Pick<Config, 'STRIPE_API_URL' | 'STRIPE_PUBLISHABLE_KEY'>>;

/** Which processor an environment uses, and why. */
export type PaymentProcessorChoice =
  | { processor: 'test'; because: 'sandbox' | 'PAYMENT_PROCESSOR=test' }
  | { processor: 'stripe'; secretKey: string; webhookSecret: string | null; apiUrl: string | null }
  | { processor: 'none' };

/**
 * The rule, in one place:
 * - the sandbox always uses the built-in test processor (Stripe keys or not);
 * - production uses the test processor only when `PAYMENT_PROCESSOR=test` says so on purpose;
 * - otherwise Stripe when `STRIPE_SECRET_KEY` is set (`PAYMENT_PROCESSOR=stripe` insists on it);
 * - otherwise none: every paid charge is refused with `PaymentProcessorNotConfigured` (free
 *   products still sell: nothing is charged for them).
 */
export function choosePaymentProcessor(config: PaymentSettings, environment: EnvironmentName): PaymentProcessorChoice {
  if (environment === 'sandbox') return { processor: 'test', because: 'sandbox' };
  if (config.PAYMENT_PROCESSOR === 'test') return { processor: 'test', because: 'PAYMENT_PROCESSOR=test' };
  if (config.STRIPE_SECRET_KEY)
    return {
      processor: 'stripe',
      secretKey: config.STRIPE_SECRET_KEY,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET ?? null,
      apiUrl: config.STRIPE_API_URL ?? null,
    };
  return { processor: 'none' };
}

export interface PaymentProcessorDependencies {
  /** An EntityManager of the environment's billing ORM (the test processor's ledger lives there). */
  em: EntityManager;
  clock: Clock;
  /** Tests point the Stripe client at a loopback server. */
  stripe?: Omit<StripeClientOptions, 'secretKey'>;
}

export function createPaymentProcessor(
  choice: PaymentProcessorChoice,
  deps: PaymentProcessorDependencies,
): PaymentProcessor {
  switch (choice.processor) {
    case 'test':
      return new TestPaymentProcessor(deps.em, deps.clock);
    case 'stripe':
      return new StripePaymentProcessor(stripeClientFor(choice, deps.stripe));
    case 'none':
      return new UnconfiguredPaymentProcessor();
  }
}

/** The Stripe client of a choice: Stripe's API, or the `STRIPE_API_URL` it names (tests: `overrides`). */
export function stripeClientFor(
  choice: Extract<PaymentProcessorChoice, { processor: 'stripe' }>,
  overrides?: Omit<StripeClientOptions, 'secretKey'>,
): ReturnType<typeof createStripeClient> {
  const url = choice.apiUrl ? new URL(choice.apiUrl) : null;
  const at = url
    ? {
        host: url.hostname,
        port: url.port ? Number(url.port) : undefined,
        protocol: url.protocol === 'http:' ? ('http' as const) : ('https' as const),
      }
    : {};
  return createStripeClient({ ...at, ...overrides, secretKey: choice.secretKey });
}

/** Production without a processor: each call is refused with an error that names the settings. */
export class UnconfiguredPaymentProcessor implements PaymentProcessor {
  readonly name = 'none' as const;
  async createCustomer(): Promise<never> {
    throw new PaymentProcessorNotConfigured();
  }
  async savePaymentMethod(): Promise<never> {
    throw new PaymentProcessorNotConfigured();
  }
  async charge(): Promise<never> {
    throw new PaymentProcessorNotConfigured();
  }
  async refund(): Promise<never> {
    throw new PaymentProcessorNotConfigured();
  }
  async cancel(): Promise<never> {
    throw new PaymentProcessorNotConfigured();
  }
  async findSetup(): Promise<never> {
    throw new PaymentProcessorNotConfigured();
  }
  async closeDispute(): Promise<never> {
    throw new PaymentProcessorNotConfigured();
  }
}

/** What the start-up banner prints and `/readyz` reports about one environment's payments. */
export interface PaymentProcessorDescription {
  environment: EnvironmentName;
  processor: 'test' | 'stripe' | 'none';
  /** True only for Stripe with a live key. */
  takesRealMoney: boolean;
  /** One line for people. */
  summary: string;
  /** Something an operator must know (simulated payments in production, no webhook secret), or null. */
  warning: string | null;
}

/**
 * For the start-up banner and `/readyz` (not wired here: the embedded and distributed entry points
 * call it once per environment). It never prints a key.
 */
export function describePaymentProcessor(
  config: PaymentSettings,
  environment: EnvironmentName,
): PaymentProcessorDescription {
  const choice = choosePaymentProcessor(config, environment);
  switch (choice.processor) {
    case 'test':
      return choice.because === 'sandbox'
        ? {
            environment,
            processor: 'test',
            takesRealMoney: false,
            summary: "Payments: test processor (sandbox; Stripe's test payment methods such as pm_card_visa)",
            warning: null,
          }
        : {
            environment,
            processor: 'test',
            takesRealMoney: false,
            summary: 'Payments: TEST processor (PAYMENT_PROCESSOR=test)',
            warning:
              'PAYMENT_PROCESSOR=test: production takes simulated payments only; no real money is collected. ' +
              'Set STRIPE_SECRET_KEY and remove PAYMENT_PROCESSOR=test to take real payments.',
          };
    case 'stripe': {
      const live = choice.secretKey.includes('_live_');
      const warnings = [
        choice.webhookSecret
          ? null
          : 'STRIPE_WEBHOOK_SECRET is not set: payment outcomes Stripe reports later (bank debits, 3-D Secure, refunds) will not be received.',
        config.STRIPE_PUBLISHABLE_KEY
          ? null
          : 'STRIPE_PUBLISHABLE_KEY is not set: the hosted checkout and the portal cannot take a card (buyers read that the seller cannot take payments yet); only API clients that make their own confirmation tokens can pay.',
      ].filter(Boolean);
      return {
        environment,
        processor: 'stripe',
        takesRealMoney: live,
        summary: `Payments: Stripe (${live ? 'live' : 'test-mode'} key)`,
        warning: warnings.length ? warnings.join(' ') : null,
      };
    }
    case 'none':
      return {
        environment,
        processor: 'none',
        takesRealMoney: false,
        summary: 'Payments: not configured (free products only)',
        warning:
          'No payment processor: paid checkouts are refused, and the checkout page tells buyers the seller cannot take ' +
          'payments yet. Set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET, ' +
          'or PAYMENT_PROCESSOR=test to take test payments only.',
      };
  }
}
