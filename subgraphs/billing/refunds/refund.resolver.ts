import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { PolarRequestValidationError } from '../../../kit/errors.js';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import type { RefundReason } from './refund.entity.js';
import { REFUNDS_READ, REFUNDS_WRITE } from './refund.access.js';
import { RefundCreateInput, RefundFilterInput } from './refund.inputs.js';
import { MANUAL_REFUND_REASONS } from '../shared/enums.js';
import { RefundList, RefundType } from './refund.type.js';

/** `/v1/refunds/`: list (read path) and create (through the payment processor). */
@Resolver(() => RefundType)
export class RefundResolver {
  @Query(() => RefundList, { description: 'Refunds of the organizations the caller may act for.' })
  async refunds(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => RefundFilterInput, { nullable: true }) filter: RefundFilterInput | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true, description: 'created_at, amount; `-` = descending.' })
    sorting: string[] | null,
  ): Promise<RefundList> {
    authorize(ctx.principal, REFUNDS_READ);
    const { succeeded, ...lists } = filter ?? {};
    const clean = Object.fromEntries(Object.entries(lists).filter(([, v]) => v?.length)) as Record<string, string[]>;
    return ctx.services.refunds.list(ctx, {
      ...clean,
      ...(typeof succeeded === 'boolean' ? { succeeded } : {}),
      page,
      limit,
      sorting,
    });
  }

  @Mutation(() => RefundType, { description: 'Refunds all or part of a paid order.' })
  async createRefund(@Ctx() ctx: BillingContext, @Arg('input') input: RefundCreateInput): Promise<RefundType> {
    authorize(ctx.principal, REFUNDS_WRITE);
    if (!(MANUAL_REFUND_REASONS as readonly string[]).includes(input.reason))
      throw new PolarRequestValidationError([
        {
          type: 'literal_error',
          loc: ['body', 'reason'],
          msg: `Input should be ${MANUAL_REFUND_REASONS.map(r => `'${r}'`).join(', ')}`,
          input: input.reason,
        },
      ]);
    if (input.amount <= 0n)
      throw new PolarRequestValidationError([
        {
          type: 'greater_than',
          loc: ['body', 'amount'],
          msg: 'Input should be greater than 0',
          input: Number(input.amount),
        },
      ]);
    return ctx.services.refunds.create(ctx, {
      orderId: input.orderId,
      reason: input.reason as RefundReason,
      amount: input.amount,
      comment: input.comment ?? null,
      revokeBenefits: input.revokeBenefits ?? false,
      metadata: input.metadata ?? null,
    });
  }
}
