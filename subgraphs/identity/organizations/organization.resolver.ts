import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { IdentityContext } from '../context.js';
import { CreateOrganizationInput, UpdateOrganizationInput } from './organization.inputs.js';
import { OrganizationList, OrganizationType } from './organization.type.js';
import { ORGANIZATIONS_CREATE, ORGANIZATIONS_READ, ORGANIZATIONS_UPDATE } from './organization.access.js';
import { FILTER_REPLACES, mergeFilter } from '../../../kit/graphql/filter.js';
import { OrganizationFilterInput } from './organization.filter.js';

/** Thin: checks who may call, hands over to the service, maps entities and read rows to the public type. */
@Resolver(() => OrganizationType)
export class OrganizationResolver {
  @Query(() => OrganizationList, { description: 'Organizations the caller may act for.' })
  async organizations(
    @Ctx() ctx: IdentityContext,
    @Arg('filter', () => OrganizationFilterInput, { nullable: true }) filter: OrganizationFilterInput | null,
    @Arg('slug', () => String, { nullable: true, deprecationReason: FILTER_REPLACES }) slugArg: string | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<OrganizationList> {
    authorize(ctx.principal, ORGANIZATIONS_READ);
    const { slug } = mergeFilter(filter, { slug: slugArg });
    const result = await ctx.services.organizations.list(ctx, { slug, page, limit, sorting });
    return { items: result.items.map(OrganizationType.fromEntity), pagination: result.pagination };
  }

  @Query(() => OrganizationType)
  async organization(@Ctx() ctx: IdentityContext, @Arg('id', () => ID) id: string): Promise<OrganizationType> {
    authorize(ctx.principal, ORGANIZATIONS_READ);
    return OrganizationType.fromEntity(await ctx.services.organizations.read(ctx, id));
  }

  @Mutation(() => OrganizationType)
  async createOrganization(
    @Ctx() ctx: IdentityContext,
    @Arg('input') input: CreateOrganizationInput,
  ): Promise<OrganizationType> {
    authorize(ctx.principal, ORGANIZATIONS_CREATE);
    return OrganizationType.fromEntity(await ctx.services.organizations.create(ctx, input));
  }

  @Mutation(() => OrganizationType)
  async updateOrganization(
    @Ctx() ctx: IdentityContext,
    @Arg('id', () => ID) id: string,
    @Arg('input') input: UpdateOrganizationInput,
  ): Promise<OrganizationType> {
    authorize(ctx.principal, ORGANIZATIONS_UPDATE);
    return OrganizationType.fromEntity(await ctx.services.organizations.update(ctx, id, input));
  }
}
