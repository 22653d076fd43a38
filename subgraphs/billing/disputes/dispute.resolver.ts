import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { PolarRequestValidationError, ResourceNotFound } from '../../../kit/errors.js';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import type { ProcessorDispute } from '../payments/payment-processor.js';
import { DISPUTES_READ, DISPUTES_WRITE } from './dispute.access.js';
import { DISPUTE_STATUSES } from './dispute.entity.js';
import { DisputeFilterInput, SandboxDisputeOpenInput } from './dispute.inputs.js';
import { DisputeList, DisputeType } from './dispute.type.js';

/** `/v1/disputes/`: list and get (read path), accept (through the processor); the sandbox's rehearsal. */
@Resolver(() => DisputeType)
export class DisputeResolver {
  @Query(() => DisputeList, { description: 'Disputes of the organizations the caller may act for.' })
  async disputes(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => DisputeFilterInput, { nullable: true }) filter: DisputeFilterInput | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true, description: 'created_at, amount; `-` = descending.' })
    sorting: string[] | null,
  ): Promise<DisputeList> {
    authorize(ctx.principal, DISPUTES_READ);
    return ctx.services.disputes.list(ctx, {
      organizationId: filter?.organizationId ?? null,
      orderId: filter?.orderId ?? undefined,
      status: filter?.status ?? undefined,
      page,
      limit,
      sorting,
    });
  }

  @Query(() => DisputeType)
  async dispute(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<DisputeType> {
    authorize(ctx.principal, DISPUTES_READ);
    return ctx.services.disputes.get(ctx, id);
  }

  @Mutation(() => DisputeType, { description: 'Concedes a dispute that needs a response: it is lost.' })
  async acceptDispute(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<DisputeType> {
    authorize(ctx.principal, DISPUTES_WRITE);
    return ctx.services.disputes.accept(ctx, id);
  }

  @Mutation(() => DisputeType, { description: "Opens a dispute on an order's payment (sandbox only; 404 elsewhere)." })
  async openSandboxDispute(
    @Ctx() ctx: BillingContext,
    @Arg('input') input: SandboxDisputeOpenInput,
  ): Promise<DisputeType> {
    authorize(ctx.principal, DISPUTES_WRITE);
    return sandbox(ctx).open(ctx, input);
  }

  @Mutation(() => DisputeType, { description: 'Moves a dispute as the card network would (sandbox only).' })
  async updateSandboxDispute(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('status') status: string,
  ): Promise<DisputeType> {
    authorize(ctx.principal, DISPUTES_WRITE);
    if (!(DISPUTE_STATUSES as readonly string[]).includes(status))
      throw new PolarRequestValidationError([
        { type: 'enum', loc: ['body', 'status'], msg: `Input should be ${DISPUTE_STATUSES.join(', ')}`, input: status },
      ]);
    return sandbox(ctx).update(ctx, id, status as ProcessorDispute['status']);
  }
}

function sandbox(ctx: BillingContext) {
  if (!ctx.services.sandboxDisputes) throw new ResourceNotFound();
  return ctx.services.sandboxDisputes;
}
