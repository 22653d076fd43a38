import { Arg, Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { OrganizationRef } from '../organizations/organization.type.js';
import { ProductType } from '../products/product.type.js';
import { CUSTOMER_PORTAL_PUBLIC } from './customer-portal.access.js';

/** Polar's CustomerOrganizationData: the seller (resolved by identity as its public profile) and its products. */
@ObjectType('CustomerPortalOrganizationData', { simpleResolvers: true })
export class CustomerPortalOrganizationDataType {
  @Field(() => OrganizationRef) organization!: OrganizationRef;
  @Field(() => [ProductType]) products!: ProductType[];
}

@Resolver()
export class CustomerPortalOrganizationResolver {
  @Query(() => CustomerPortalOrganizationDataType, {
    description: "A seller's customer portal by its slug, with its public products (no credential).",
  })
  async customerPortalOrganization(
    @Ctx() ctx: BillingContext,
    @Arg('slug') slug: string,
  ): Promise<CustomerPortalOrganizationDataType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_PUBLIC);
    return ctx.services.customerPortalOrganizations.get(ctx, slug);
  }
}
