import { Arg, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { OrganizationRef } from '../organizations/organization.type.js';
import { PRODUCTS_READ } from './product.access.js';
import { ProductList } from './product.type.js';

/** `Organization.products`: billing's field on identity's Organization. */
@Resolver(() => OrganizationRef)
export class OrganizationProductsResolver {
  @FieldResolver(() => ProductList, { description: "The organization's products." })
  async products(
    @Root() organization: OrganizationRef,
    @Ctx() ctx: BillingContext,
    @Arg('isArchived', () => Boolean, { nullable: true }) isArchived: boolean | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<ProductList> {
    authorize(ctx.principal, PRODUCTS_READ);
    return ctx.services.products.list(ctx, {
      organizationIds: [organization.id],
      isArchived,
      page,
      limit,
      sorting,
    });
  }
}
