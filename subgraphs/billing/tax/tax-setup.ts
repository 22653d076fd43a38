import type { Config } from '../../../kit/config.js';
import type { Logger } from '../../../kit/logger.js';
import { BuiltInTaxCalculator } from './built-in-calculator.js';
import { SandboxVatIdVerifier } from './sandbox-vat-id-verifier.js';
import { StripeTaxCalculator } from './stripe-tax-calculator.js';
import type { TaxCalculation, TaxCalculationRequest, TaxCalculator, VatIdVerifier } from './tax.contract.js';
import { ViesVerifier } from './vies-verifier.js';

export { resolveTaxBehavior } from './tax-behavior.js';

export type TaxSettings = Partial<
  Pick<Config, 'PAYMENT_PROCESSOR' | 'STRIPE_SECRET_KEY' | 'STRIPE_API_URL' | 'VIES_URL' | 'VIES_TIMEOUT_MS'>
>;

export interface TaxServices {
  calculator: TaxCalculator;
  vatIds: VatIdVerifier;
}

/**
 * The tax services of one environment (docs/tax.md):
 * - the calculator asks Stripe Tax for a seller who turned it on (`stripeTaxEnabled`) and has a
 *   country, when production's processor is Stripe (a secret key, and not `PAYMENT_PROCESSOR=test`);
 *   everyone else, and every sandbox request, gets the built-in rules;
 * - VAT ids are checked with VIES in production and against the documented test ids in the sandbox.
 */
export function taxServices(options: {
  sandbox: boolean;
  config: TaxSettings;
  fetch?: typeof fetch;
  logger?: Pick<Logger, 'warn'>;
}): TaxServices {
  const { sandbox, config } = options;
  const builtIn = new BuiltInTaxCalculator();
  const stripeIsProcessor = !sandbox && !!config.STRIPE_SECRET_KEY && config.PAYMENT_PROCESSOR !== 'test';
  const stripe = stripeIsProcessor
    ? new StripeTaxCalculator({
        secretKey: config.STRIPE_SECRET_KEY!,
        apiUrl: config.STRIPE_API_URL ?? null,
        fallback: builtIn,
        fetch: options.fetch,
        logger: options.logger,
      })
    : null;
  return {
    calculator: new PerSellerCalculator(builtIn, stripe),
    vatIds: sandbox
      ? new SandboxVatIdVerifier()
      : new ViesVerifier({
          url: config.VIES_URL,
          timeoutMs: config.VIES_TIMEOUT_MS,
          fetch: options.fetch,
          logger: options.logger,
        }),
  };
}

/** Chooses, per request, Stripe Tax (when the seller turned it on and it is available) or the built-in rules. */
class PerSellerCalculator implements TaxCalculator {
  constructor(
    private readonly builtIn: TaxCalculator,
    private readonly stripe: TaxCalculator | null,
  ) {}

  calculate(request: TaxCalculationRequest): Promise<TaxCalculation> {
    const useStripe = this.stripe && request.seller.stripeTaxEnabled && request.seller.country;
    return (useStripe ? this.stripe! : this.builtIn).calculate(request);
  }
}
