import { Arg, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import { FILTER_REPLACES, mergeFilter } from '../../../kit/graphql/filter.js';
import type { BillingContext } from '../context.js';
import { OrganizationRef } from '../organizations/organization.type.js';
import { PRODUCTS_READ } from './product.access.js';
import { ProductFilterInput } from './product.filter.js';
import { ProductList } from './product.type.js';

/** `Organization.products`: billing's field on identity's Organization. */
@Resolver(() => OrganizationRef)
export class OrganizationProductsResolver {
  @FieldResolver(() => ProductList, { description: "The organization's products." })
  async products(
    @Root() organization: OrganizationRef,
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => ProductFilterInput, {
      nullable: true,
      description: "The products list's filter; its `organizationId` is this organization, whatever it says.",
    })
    filter: ProductFilterInput | null,
    @Arg('isArchived', () => Boolean, { nullable: true, deprecationReason: FILTER_REPLACES }) isArchived:
      | boolean
      | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<ProductList> {
    authorize(ctx.principal, PRODUCTS_READ);
    const { id, query, isRecurring, visibility } = filter ?? {};
    return ctx.services.products.list(ctx, {
      ...mergeFilter(filter, { isArchived }),
      ids: id,
      query,
      isRecurring,
      visibility,
      organizationIds: [organization.id],
      page,
      limit,
      sorting,
    });
  }
}
