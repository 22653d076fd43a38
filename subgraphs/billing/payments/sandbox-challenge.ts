import { Field, ObjectType } from 'type-graphql';
import { ResourceNotFound } from '../../../kit/errors.js';
import { MinorUnits } from '../shared/scalars.js';
import type { ProcessorEventHandler } from './processor-events.js';
import type { PaymentProcessor } from './payment-processor.js';
import type { TestChallenge } from './test-processor/test-challenge.js';
import { TestPaymentProcessor } from './test-processor/test-processor.js';

@ObjectType('SandboxPaymentChallenge', {
  simpleResolvers: true,
  description: 'A payment or a saved card waiting for 3-D Secure in the sandbox (its simulated bank page).',
})
export class SandboxPaymentChallengeType {
  @Field(() => String, { description: 'charge | setup' }) kind!: string;
  @Field(() => String, { description: 'requires_action | succeeded | failed | canceled' }) status!: string;
  @Field(() => MinorUnits, { nullable: true }) amount!: bigint | null;
  @Field(() => String, { nullable: true }) currency!: string | null;
  @Field() brand!: string;
  @Field() last4!: string;
}

/**
 * The sandbox's simulated 3-D Secure page, billing's side (docs/payments.md): the test processor's
 * challenge is read by the intent's client secret and settled once; the processor event it reports
 * goes through the same handler as Stripe's webhooks (processor-events.ts: applied once, by its id),
 * and the checkout's fulfilment it may enqueue runs before the answer (`fulfilNow`, given by the
 * composition: payments know nothing of what a checkout's job is). Production has none: 404.
 */
export class SandboxChallengeService {
  constructor(
    private readonly sandbox: boolean,
    private readonly payments: PaymentProcessor,
    private readonly events: ProcessorEventHandler,
    private readonly fulfilNow: (checkoutId: string) => Promise<void>,
  ) {}

  async read(clientSecret: string): Promise<SandboxPaymentChallengeType> {
    const found = await this.challenges().describe(clientSecret);
    if (!found) throw new ResourceNotFound();
    return found;
  }

  async settle(clientSecret: string, complete: boolean): Promise<SandboxPaymentChallengeType> {
    // A charge billing gave up (abandoned after the wait, subscriptions/lifecycle/abandoned-payments.ts)
    // was canceled at the processor first: the ledger's `canceled` row answers a late "complete" itself.
    const settled = await this.challenges().settle(clientSecret, complete);
    if (!settled) throw new ResourceNotFound();
    await this.events.apply(settled.event);
    const checkoutId = settled.event.type === 'charge.succeeded' ? settled.event.metadata.checkout_id : null;
    if (checkoutId) await this.fulfilNow(checkoutId);
    return settled.challenge satisfies TestChallenge;
  }

  private challenges() {
    if (!this.sandbox || !(this.payments instanceof TestPaymentProcessor)) throw new ResourceNotFound();
    return this.payments.challenges();
  }
}
