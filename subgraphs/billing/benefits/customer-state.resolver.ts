import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CUSTOMERS_READ } from '../customers/customer.access.js';
import { CustomerStateType } from './customer-state.js';

/** `GET /v1/customers/{id}/state` and `/external/{external_id}/state`: read with the customers scopes. */
@Resolver(() => CustomerStateType)
export class CustomerStateResolver {
  @Query(() => CustomerStateType, { description: 'The customer with its active subscriptions and granted benefits.' })
  async customerState(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID, { nullable: true }) id: string | null,
    @Arg('externalId', () => String, { nullable: true }) externalId: string | null,
  ): Promise<CustomerStateType> {
    authorize(ctx.principal, CUSTOMERS_READ);
    return ctx.services.benefitGrants.customerState(ctx, id ? { id } : { externalId: externalId ?? '' });
  }
}
