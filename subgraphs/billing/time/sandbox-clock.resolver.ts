import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { PolarRequestValidationError } from '../../../kit/errors.js';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import type { ClockAdvance } from './organization-clocks.js';
import { SANDBOX_CLOCK_ADVANCE, SANDBOX_CLOCK_READ } from './sandbox-clock.access.js';
import { AdvanceSandboxClockInput, SandboxClockType } from './sandbox-clock.type.js';

@Resolver(() => SandboxClockType)
export class SandboxClockResolver {
  @Query(() => SandboxClockType, {
    description: "An organization's sandbox clock (sandbox only; 404 in production).",
  })
  async sandboxClock(
    @Ctx() ctx: BillingContext,
    @Arg('organizationId', () => ID, { nullable: true }) organizationId?: string | null,
  ): Promise<SandboxClockType> {
    authorize(ctx.principal, SANDBOX_CLOCK_READ);
    return ctx.services.sandboxClock.read(ctx, organizationId);
  }

  @Mutation(() => SandboxClockType, {
    description:
      "Moves an organization's sandbox clock forward, running every billing action due up to then, in order (sandbox only).",
  })
  async advanceSandboxClock(
    @Ctx() ctx: BillingContext,
    @Arg('input') input: AdvanceSandboxClockInput,
  ): Promise<SandboxClockType> {
    authorize(ctx.principal, SANDBOX_CLOCK_ADVANCE);
    return ctx.services.sandboxClock.advance(ctx, input.organizationId, advanceOf(input));
  }
}

function advanceOf(input: AdvanceSandboxClockInput): ClockAdvance {
  const hasTo = input.to != null;
  const hasSeconds = input.seconds != null;
  if (hasTo === hasSeconds)
    throw new PolarRequestValidationError([
      { type: 'value_error', loc: ['body'], msg: 'Value error, Give exactly one of `to` and `seconds`.', input: null },
    ]);
  if (hasSeconds && input.seconds! < 0)
    throw new PolarRequestValidationError([
      {
        type: 'greater_than_equal',
        loc: ['body', 'seconds'],
        msg: 'Input should be greater than or equal to 0',
        input: input.seconds,
      },
    ]);
  return hasTo ? { to: input.to! } : { seconds: input.seconds! };
}
