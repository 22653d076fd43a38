import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { IdentityContext } from '../context.js';
import {
  CreateOrganizationAccessTokenInput,
  UpdateOrganizationAccessTokenInput,
} from './organization-access-token.inputs.js';
import {
  OrganizationAccessTokenCreated,
  OrganizationAccessTokenList,
  OrganizationAccessTokenType,
} from './organization-access-token.type.js';
import {
  ORGANIZATION_ACCESS_TOKENS_READ,
  ORGANIZATION_ACCESS_TOKENS_WRITE,
} from './organization-access-token.access.js';
import { FILTER_REPLACES, mergeFilter } from '../../../kit/graphql/filter.js';
import { OrganizationAccessTokenFilterInput } from './organization-access-token.filter.js';

@Resolver(() => OrganizationAccessTokenType)
export class OrganizationAccessTokenResolver {
  @Query(() => OrganizationAccessTokenList)
  async organizationAccessTokens(
    @Ctx() ctx: IdentityContext,
    @Arg('filter', () => OrganizationAccessTokenFilterInput, { nullable: true })
    filter: OrganizationAccessTokenFilterInput | null,
    @Arg('organizationId', () => ID, { nullable: true, deprecationReason: FILTER_REPLACES }) organizationIdArg:
      | string
      | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
  ): Promise<OrganizationAccessTokenList> {
    authorize(ctx.principal, ORGANIZATION_ACCESS_TOKENS_READ);
    const { organizationId } = mergeFilter(filter, { organizationId: organizationIdArg });
    const result = await ctx.services.organizationAccessTokens.list(ctx, { organizationId, page, limit });
    return result;
  }

  @Mutation(() => OrganizationAccessTokenCreated)
  async createOrganizationAccessToken(
    @Ctx() ctx: IdentityContext,
    @Arg('input') input: CreateOrganizationAccessTokenInput,
  ): Promise<OrganizationAccessTokenCreated> {
    authorize(ctx.principal, ORGANIZATION_ACCESS_TOKENS_WRITE);
    const { token, raw } = await ctx.services.organizationAccessTokens.create(ctx, input);
    return { organizationAccessToken: OrganizationAccessTokenType.fromEntity(token), token: raw };
  }

  @Mutation(() => OrganizationAccessTokenType)
  async updateOrganizationAccessToken(
    @Ctx() ctx: IdentityContext,
    @Arg('id', () => ID) id: string,
    @Arg('input') input: UpdateOrganizationAccessTokenInput,
  ): Promise<OrganizationAccessTokenType> {
    authorize(ctx.principal, ORGANIZATION_ACCESS_TOKENS_WRITE);
    return OrganizationAccessTokenType.fromEntity(await ctx.services.organizationAccessTokens.update(ctx, id, input));
  }

  @Mutation(() => Boolean)
  async deleteOrganizationAccessToken(@Ctx() ctx: IdentityContext, @Arg('id', () => ID) id: string): Promise<boolean> {
    authorize(ctx.principal, ORGANIZATION_ACCESS_TOKENS_WRITE);
    await ctx.services.organizationAccessTokens.delete(ctx, id);
    return true;
  }
}
