import { Arg, Ctx, Field, ID, InputType, Int, Query, Resolver } from 'type-graphql';
import { ResourceNotFound } from '../../../kit/errors.js';
import { authorize } from '../../../kit/graphql/authorize.js';
import { pageWindow, paginationOf } from '../../../kit/graphql/pagination.js';
import type { BillingContext } from '../context.js';
import { sortCriteria } from '../shared/sorting.js';
import { PAYMENTS_READ } from './payment.access.js';
import { paymentRead, type PaymentReadFilters } from './payment.read.js';
import { PAYMENT_DEFAULT_SORTING, PAYMENT_SORT_KEYS } from './payment.sorting.js';
import { PaymentList, PaymentType } from './payment.type.js';

@InputType('PaymentFilter')
export class PaymentFilterInput {
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
  @Field(() => [ID], { nullable: true }) checkoutId?: string[] | null;
  @Field(() => [ID], { nullable: true }) orderId?: string[] | null;
  @Field(() => [ID], { nullable: true }) customerId?: string[] | null;
  @Field(() => [String], { nullable: true }) status?: string[] | null;
  @Field(() => [String], { nullable: true }) method?: string[] | null;
  @Field(() => [String], { nullable: true }) customerEmail?: string[] | null;
}

/** `/v1/payments/`: every charge attempt, failed ones included, through the read path. */
@Resolver(() => PaymentType)
export class PaymentResolver {
  @Query(() => PaymentList)
  async payments(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => PaymentFilterInput, { nullable: true }) filter: PaymentFilterInput | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<PaymentList> {
    authorize(ctx.principal, PAYMENTS_READ);
    const { organizationId, ...rest } = filter ?? {};
    const filters = Object.fromEntries(Object.entries(rest).filter(([, v]) => v?.length)) as PaymentReadFilters;
    const { rows, total } = await paymentRead.page(
      ctx.em,
      ctx.principal,
      filters,
      sortCriteria(sorting ?? [], PAYMENT_SORT_KEYS, PAYMENT_DEFAULT_SORTING),
      pageWindow({ page, limit }),
      { organizationIds: organizationId?.length ? organizationId : null },
    );
    return { items: rows.map(PaymentType.fromRow), pagination: paginationOf(total, limit) };
  }

  @Query(() => PaymentType)
  async payment(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<PaymentType> {
    authorize(ctx.principal, PAYMENTS_READ);
    const row = await paymentRead.byId(ctx.em, ctx.principal, id);
    if (!row) throw new ResourceNotFound();
    return PaymentType.fromRow(row);
  }
}
