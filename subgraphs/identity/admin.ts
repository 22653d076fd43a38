import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../kit/clock.js';
import { addDuration, parseDuration } from '../../kit/duration.js';
import { BadRequest, ResourceNotFound } from '../../kit/errors.js';
import { hashToken, prefixOf, TOKEN_PREFIXES } from '../../kit/tokens.js';
import { MemberRole } from './memberships/membership.entity.js';
import type { Organization } from './organizations/organization.entity.js';
import { OrganizationSlugTaken } from './organizations/organization.errors.js';
import { OrganizationRepository } from './organizations/organization.repository.js';
import { checkOrganizationFields } from './organizations/organization.validation.js';
import type { IdentityServices } from './services.js';
import { OrganizationAccessTokenRepository } from './tokens/organization-access-token.repository.js';
import { PersonalAccessTokenRepository } from './tokens/personal-access-token.repository.js';
import type { User } from './users/user.entity.js';
import { UserRepository } from './users/user.repository.js';

/**
 * Operator actions with no API caller behind them: what the CLI does to bootstrap an instance and
 * manage credentials. Each runs in its own unit of work.
 */
export class IdentityAdmin {
  constructor(
    private readonly orm: MikroORM,
    private readonly services: IdentityServices,
    private readonly clock: Clock,
    private readonly secret: string,
  ) {}

  private ctx() {
    return { em: this.orm.em.fork(), clock: this.clock };
  }

  createUser(email: string, password: string): Promise<User> {
    return this.services.users.create(this.ctx(), email, password);
  }

  /**
   * Refuses a name or slug that `createOrganization` would refuse, so a command that creates
   * several things (bootstrap) can fail before it creates any of them.
   */
  async checkOrganizationAvailable(name: string, slug: string): Promise<void> {
    checkOrganizationFields({ name, slug });
    if (await new OrganizationRepository(this.orm.em.fork()).findBySlug(slug)) throw new OrganizationSlugTaken(slug);
  }

  async createOrganization(ownerEmail: string, name: string, slug: string): Promise<Organization> {
    const ctx = this.ctx();
    const owner = await this.services.users.findByEmail(ctx.em, ownerEmail);
    if (!owner) throw new ResourceNotFound(`No user with e-mail ${ownerEmail}`);
    return this.services.organizations.createForUser(ctx, owner.id, { name, slug });
  }

  async addMember(organizationId: string, email: string, role: MemberRole = MemberRole.MEMBER): Promise<void> {
    const ctx = this.ctx();
    const user = await this.services.users.findByEmail(ctx.em, email);
    if (!user) throw new ResourceNotFound(`No user with e-mail ${email}`);
    if (!(await new OrganizationRepository(ctx.em).findById(organizationId)))
      throw new ResourceNotFound(`No organization ${organizationId}`);
    await this.services.organizations.addMember(ctx, organizationId, user.id, role);
  }

  /** `expiresIn` is an ISO 8601 duration (P30D); absent means the token does not expire. */
  async createPersonalAccessToken(
    userId: string,
    scopes: string[],
    expiresIn?: string,
    comment = 'CLI',
  ): Promise<string> {
    const ctx = this.ctx();
    if (!(await new UserRepository(ctx.em).findById(userId))) throw new ResourceNotFound(`No user ${userId}`);
    const { raw } = await this.services.personalAccessTokens.issue(ctx, {
      userId,
      scopes,
      comment,
      expiresAt: this.expiry(expiresIn),
    });
    return raw;
  }

  async createOrganizationAccessToken(
    organizationId: string,
    scopes: string[],
    expiresIn?: string,
    comment = 'CLI',
  ): Promise<string> {
    const ctx = this.ctx();
    if (!(await new OrganizationRepository(ctx.em).findById(organizationId)))
      throw new ResourceNotFound(`No organization ${organizationId}`);
    const { raw } = await this.services.organizationAccessTokens.issue(ctx, {
      organizationId,
      scopes,
      comment,
      expiresAt: this.expiry(expiresIn),
    });
    return raw;
  }

  /** Revokes a personal or organization access token given as the raw token. */
  async revokeToken(raw: string): Promise<void> {
    const ctx = this.ctx();
    const hash = hashToken(raw, this.secret);
    const prefix = prefixOf(raw);
    if (prefix === TOKEN_PREFIXES.organizationAccessToken) {
      const token = await new OrganizationAccessTokenRepository(ctx.em).findUndeletedByTokenHash(hash);
      if (!token) throw new ResourceNotFound('No live organization access token matches');
      await this.services.organizationAccessTokens.revoke(ctx, token);
    } else if (prefix === TOKEN_PREFIXES.personalAccessToken) {
      const token = await new PersonalAccessTokenRepository(ctx.em).findUndeletedByTokenHash(hash);
      if (!token) throw new ResourceNotFound('No live personal access token matches');
      await this.services.personalAccessTokens.revoke(ctx, token);
    } else {
      throw new BadRequest('Only polar_pat_ and polar_oat_ tokens can be revoked here');
    }
  }

  private expiry(expiresIn?: string): Date | null {
    if (!expiresIn) return null;
    const duration = parseDuration(expiresIn);
    if (!duration) throw new BadRequest(`--expires-in must be an ISO 8601 duration such as P30D (got "${expiresIn}")`);
    return addDuration(this.clock.now(), duration);
  }
}
