import { Arg, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CUSTOMER_PORTAL_READ } from '../customers/customer.access.js';
import { CustomerWalletList, CustomerWalletType } from './wallet.type.js';

/** The authenticated customer's own wallets (docs/wallets.md): the read path narrows a session to its rows. */
@Resolver(() => CustomerWalletType)
export class CustomerPortalWalletsResolver {
  @Query(() => CustomerWalletList, { description: "The customer's wallets (customer session token)." })
  async customerPortalWallets(
    @Ctx() ctx: BillingContext,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true, description: 'created_at, balance; `-` = descending.' })
    sorting: string[] | null,
  ): Promise<CustomerWalletList> {
    authorize(ctx.principal, CUSTOMER_PORTAL_READ);
    return ctx.services.wallets.list(ctx, { page, limit, sorting });
  }

  @Query(() => CustomerWalletType)
  async customerPortalWallet(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<CustomerWalletType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_READ);
    return ctx.services.wallets.get(ctx, id);
  }
}
