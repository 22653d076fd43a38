import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import { addDuration, parseDuration } from '../../../kit/duration.js';
import { ResourceNotFound } from '../../../kit/errors.js';
import { pageWindow, paginationOf, type PageRequest } from '../../../kit/graphql/pagination.js';
import type { PrincipalCache } from '../../../kit/principal-cache.js';
import { GRANTABLE_SCOPES } from '../../../kit/scopes.js';
import { targetOrganization } from '../../../kit/target-organization.js';
import { generateToken, hashToken, TOKEN_PREFIXES } from '../../../kit/tokens.js';
import { type RequestContext, readerOf } from '../../../kit/request-context.js';
import { CannotManageOrganization } from '../organizations/organization.errors.js';
import { OrganizationRepository } from '../organizations/organization.repository.js';
import type {
  CreateOrganizationAccessTokenInput,
  UpdateOrganizationAccessTokenInput,
} from './organization-access-token.inputs.js';
import { OrganizationAccessToken } from './organization-access-token.entity.js';
import { organizationAccessTokenRead } from './organization-access-token.read.js';
import { OrganizationAccessTokenRepository } from './organization-access-token.repository.js';
import { type OrganizationAccessTokenRow, OrganizationAccessTokenType } from './organization-access-token.type.js';
import { InvalidExpiry, InvalidScopes } from './token.errors.js';

/** Organization access tokens: created with chosen scopes, shown once, revoked by soft delete. */
export class OrganizationAccessTokenService {
  constructor(
    private readonly secret: string,
    private readonly cache: PrincipalCache,
  ) {}

  /** One page through the read path (one statement, plus the exact count when the page is full). */
  async list(ctx: RequestContext, query: PageRequest & { organizationId?: string | null }) {
    const window = pageWindow(query);
    const { rows, total } = await organizationAccessTokenRead.page(
      readerOf(ctx),
      ctx.principal,
      query.organizationId ? { organizationId: query.organizationId } : {},
      [{ key: 'created_at', direction: 'desc' }],
      window,
    );
    const items = rows.map(row => OrganizationAccessTokenType.fromEntity(row.r as OrganizationAccessTokenRow));
    return { items, pagination: paginationOf(total, query.limit) };
  }

  async create(ctx: RequestContext, input: CreateOrganizationAccessTokenInput) {
    const repository = new OrganizationRepository(ctx.em);
    const organizationId = await targetOrganization(
      ctx.principal,
      input.organizationId,
      async id => (await repository.findReadable(ctx.principal, id)) !== null,
    );
    if (!(await repository.canManage(ctx.principal, organizationId))) throw new CannotManageOrganization();
    const invalid = input.scopes.filter(s => !GRANTABLE_SCOPES.includes(s as never));
    if (invalid.length) throw new InvalidScopes(invalid, GRANTABLE_SCOPES);
    let expiresAt: Date | null = null;
    if (input.expiresIn) {
      const duration = parseDuration(input.expiresIn);
      if (!duration) throw new InvalidExpiry(input.expiresIn);
      expiresAt = addDuration(ctx.clock.now(), duration);
    }
    return this.issue(ctx, { organizationId, scopes: input.scopes, comment: input.comment, expiresAt });
  }

  /** Creates the row and returns the raw token, which exists nowhere else afterwards. Used by the CLI too. */
  async issue(
    ctx: { em: EntityManager; clock: Clock },
    fields: { organizationId: string; scopes: string[]; comment: string; expiresAt: Date | null },
  ): Promise<{ token: OrganizationAccessToken; raw: string }> {
    const raw = generateToken(TOKEN_PREFIXES.organizationAccessToken);
    const token = ctx.em.create(OrganizationAccessToken, {
      organizationId: fields.organizationId,
      tokenHash: hashToken(raw, this.secret),
      scopes: [...new Set(fields.scopes)],
      comment: fields.comment,
      expiresAt: fields.expiresAt,
      createdAt: ctx.clock.now(),
    } as OrganizationAccessToken);
    await ctx.em.flush();
    return { token, raw };
  }

  async update(
    ctx: RequestContext,
    id: string,
    input: UpdateOrganizationAccessTokenInput,
  ): Promise<OrganizationAccessToken> {
    const token = await this.findManageable(ctx, id);
    if (input.scopes != null) {
      const invalid = input.scopes.filter(s => !GRANTABLE_SCOPES.includes(s as never));
      if (invalid.length) throw new InvalidScopes(invalid, GRANTABLE_SCOPES);
      token.scopes = [...new Set(input.scopes)];
    }
    if (input.comment != null) token.comment = input.comment;
    token.modifiedAt = ctx.clock.now();
    await ctx.em.flush();
    await this.cache.announce(ctx.em, { tokenIds: [token.id] });
    return token;
  }

  async delete(ctx: RequestContext, id: string): Promise<void> {
    const token = await this.findManageable(ctx, id);
    await this.revoke(ctx, token);
  }

  async revoke(ctx: { em: EntityManager; clock: Clock }, token: OrganizationAccessToken): Promise<void> {
    token.deletedAt = ctx.clock.now();
    await ctx.em.flush();
    // Every process drops it now (NOTIFY), not when its cached principal goes stale.
    await this.cache.announce(ctx.em, { tokenIds: [token.id] });
  }

  private async findManageable(ctx: RequestContext, id: string): Promise<OrganizationAccessToken> {
    const token = await new OrganizationAccessTokenRepository(ctx.em).findUndeleted(id);
    const repository = new OrganizationRepository(ctx.em);
    if (!token || !(await repository.findReadable(ctx.principal, token.organizationId))) throw new ResourceNotFound();
    if (!(await repository.canManage(ctx.principal, token.organizationId))) throw new CannotManageOrganization();
    return token;
  }
}
