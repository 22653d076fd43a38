import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CUSTOMER_PORTAL_MEMBERS, CUSTOMER_PORTAL_USER, MEMBERS_READ, MEMBERS_WRITE } from './member.access.js';
import { MemberCreateInput, MemberFilterInput, MemberUpdateInput } from './member.inputs.js';
import type { Ref } from './member.repository.js';
import { MemberList, MemberType, PortalAuthenticatedUserType } from './member.type.js';

/** A customer is named by `customerId` or `customerExternalId`, a member by `memberId` or `memberExternalId`. */
function ref(id: string | null, externalId: string | null): Ref {
  return id != null ? { id } : { externalId: externalId ?? '' };
}

/**
 * A customer's members through the Core API (`/v1/customers/{id}/members`, and by external ids) and the
 * customer's team in its portal (`/v1/customer-portal/members`), with who the portal session is. Thin.
 */
@Resolver(() => MemberType)
export class MemberResolver {
  @Query(() => MemberList, { description: "A customer's members (give the customer's id or external id)." })
  async customerMembers(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => MemberFilterInput, { nullable: true }) filter: MemberFilterInput | null,
    @Arg('customerId', () => ID, { nullable: true, deprecationReason: 'Use filter.' }) customerId: string | null,
    @Arg('customerExternalId', () => String, { nullable: true, deprecationReason: 'Use filter.' })
    customerExternalId: string | null,
    @Arg('role', () => String, { nullable: true, deprecationReason: 'Use filter.' }) role: string | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true, description: 'created_at; `-` = descending.' })
    sorting: string[] | null,
  ): Promise<MemberList> {
    authorize(ctx.principal, MEMBERS_READ);
    const owner = ref(filter?.customerId ?? customerId, filter?.customerExternalId ?? customerExternalId);
    return ctx.services.members.list(ctx, owner, { role: filter?.role ?? role, page, limit, sorting });
  }

  @Query(() => MemberType)
  async customerMember(
    @Ctx() ctx: BillingContext,
    @Arg('customerId', () => ID, { nullable: true }) customerId: string | null,
    @Arg('customerExternalId', () => String, { nullable: true }) customerExternalId: string | null,
    @Arg('memberId', () => ID, { nullable: true }) memberId: string | null,
    @Arg('memberExternalId', () => String, { nullable: true }) memberExternalId: string | null,
  ): Promise<MemberType> {
    authorize(ctx.principal, MEMBERS_READ);
    return ctx.services.members.get(ctx, ref(customerId, customerExternalId), ref(memberId, memberExternalId));
  }

  @Mutation(() => MemberType)
  async createCustomerMember(
    @Ctx() ctx: BillingContext,
    @Arg('customerId', () => ID, { nullable: true }) customerId: string | null,
    @Arg('customerExternalId', () => String, { nullable: true }) customerExternalId: string | null,
    @Arg('input') input: MemberCreateInput,
  ): Promise<MemberType> {
    authorize(ctx.principal, MEMBERS_WRITE);
    return ctx.services.members.create(ctx, ref(customerId, customerExternalId), input);
  }

  @Mutation(() => MemberType)
  async updateCustomerMember(
    @Ctx() ctx: BillingContext,
    @Arg('customerId', () => ID, { nullable: true }) customerId: string | null,
    @Arg('customerExternalId', () => String, { nullable: true }) customerExternalId: string | null,
    @Arg('memberId', () => ID, { nullable: true }) memberId: string | null,
    @Arg('memberExternalId', () => String, { nullable: true }) memberExternalId: string | null,
    @Arg('input') input: MemberUpdateInput,
  ): Promise<MemberType> {
    authorize(ctx.principal, MEMBERS_WRITE);
    const customer = ref(customerId, customerExternalId);
    return ctx.services.members.update(ctx, customer, ref(memberId, memberExternalId), input);
  }

  @Mutation(() => Boolean)
  async deleteCustomerMember(
    @Ctx() ctx: BillingContext,
    @Arg('customerId', () => ID, { nullable: true }) customerId: string | null,
    @Arg('customerExternalId', () => String, { nullable: true }) customerExternalId: string | null,
    @Arg('memberId', () => ID, { nullable: true }) memberId: string | null,
    @Arg('memberExternalId', () => String, { nullable: true }) memberExternalId: string | null,
  ): Promise<boolean> {
    authorize(ctx.principal, MEMBERS_WRITE);
    await ctx.services.members.delete(ctx, ref(customerId, customerExternalId), ref(memberId, memberExternalId));
    return true;
  }

  @Query(() => MemberList, { description: "The signed-in team customer's members (customer session token)." })
  async customerPortalMembers(
    @Ctx() ctx: BillingContext,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
  ): Promise<MemberList> {
    authorize(ctx.principal, CUSTOMER_PORTAL_MEMBERS);
    return ctx.services.members.portalList(ctx, { page, limit });
  }

  @Mutation(() => MemberType)
  async addCustomerPortalMember(
    @Ctx() ctx: BillingContext,
    @Arg('input') input: MemberCreateInput,
  ): Promise<MemberType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_MEMBERS);
    return ctx.services.members.portalAdd(ctx, input);
  }

  @Mutation(() => MemberType)
  async updateCustomerPortalMember(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input') input: MemberUpdateInput,
  ): Promise<MemberType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_MEMBERS);
    return ctx.services.members.portalUpdate(ctx, id, input);
  }

  @Mutation(() => Boolean)
  async removeCustomerPortalMember(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<boolean> {
    authorize(ctx.principal, CUSTOMER_PORTAL_MEMBERS);
    await ctx.services.members.portalRemove(ctx, id);
    return true;
  }

  @Query(() => PortalAuthenticatedUserType, { description: 'Who the portal session is.' })
  async customerPortalAuthenticatedUser(@Ctx() ctx: BillingContext): Promise<PortalAuthenticatedUserType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_USER);
    return ctx.services.members.authenticatedUser(ctx);
  }
}
