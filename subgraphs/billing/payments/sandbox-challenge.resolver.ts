import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { ResourceNotFound } from '../../../kit/errors.js';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { PAYMENT_CHALLENGE } from './payment.access.js';
import { SandboxPaymentChallengeType } from './sandbox-challenge.js';

/** The sandbox's simulated 3-D Secure page's two operations (404 in production). */
@Resolver(() => SandboxPaymentChallengeType)
export class SandboxChallengeResolver {
  @Query(() => SandboxPaymentChallengeType, {
    description: 'A test payment waiting for 3-D Secure, by its client secret (sandbox only; 404 in production).',
  })
  sandboxPaymentChallenge(@Ctx() ctx: BillingContext, @Arg('clientSecret') clientSecret: string) {
    authorize(ctx.principal, PAYMENT_CHALLENGE);
    return service(ctx).read(clientSecret);
  }

  @Mutation(() => SandboxPaymentChallengeType, {
    description:
      "Completes (`complete: true`) or fails the simulated 3-D Secure challenge; the payment's event is applied once (sandbox only).",
  })
  settleSandboxPaymentChallenge(
    @Ctx() ctx: BillingContext,
    @Arg('clientSecret') clientSecret: string,
    @Arg('complete') complete: boolean,
  ) {
    authorize(ctx.principal, PAYMENT_CHALLENGE);
    return service(ctx).settle(clientSecret, complete);
  }
}

function service(ctx: BillingContext) {
  if (!ctx.services.paymentChallenges) throw new ResourceNotFound();
  return ctx.services.paymentChallenges;
}
