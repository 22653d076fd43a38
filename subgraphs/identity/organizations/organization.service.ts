import { camelKeys, snakeKeys } from '../../../kit/case.js';
import { ResourceNotFound, Unauthorized } from '../../../kit/errors.js';
import { pageWindow, paginationOf, type PageRequest } from '../../../kit/graphql/pagination.js';
import { PrincipalCache } from '../../../kit/principal-cache.js';
import { type RequestContext, readerOf } from '../../../kit/request-context.js';
import { Membership, MemberRole } from '../memberships/membership.entity.js';
import type { CreateOrganizationInput, UpdateOrganizationInput } from './organization.inputs.js';
import { Organization } from './organization.entity.js';
import { CannotManageOrganization, OrganizationSlugTaken } from './organization.errors.js';
import { organizationCriteria, organizationRead } from './organization.read.js';
import { OrganizationRepository } from './organization.repository.js';
import type {
  CustomerEmailSettings,
  CustomerPortalSettings,
  FeatureSettings,
  SubscriptionSettings,
} from './organization.settings.js';
import { organizationOrderBy } from './organization.sorting.js';
import { mergeTaxSettings, taxSettingsIssues } from './organization.tax-settings.js';
import type { OrganizationRow } from './organization.type.js';
import { checkOrganizationFields } from './organization.validation.js';

export interface OrganizationListQuery extends PageRequest {
  slug?: string | null;
  sorting?: string[] | null;
}

/** Organization use cases. Stateless: every call receives the request context. */
export class OrganizationService {
  /** A new membership widens what the user's principals may reach: their cached principals go, everywhere. */
  constructor(private readonly principals: PrincipalCache = new PrincipalCache()) {}

  /** One page through the read path (one statement, plus the exact count when the page is full). */
  async list(ctx: RequestContext, query: OrganizationListQuery) {
    const window = pageWindow(query);
    const { rows, total } = await organizationRead.page(
      readerOf(ctx),
      ctx.principal,
      query.slug ? { slug: query.slug } : {},
      organizationCriteria(organizationOrderBy(query.sorting ?? [])),
      window,
    );
    return { items: rows.map(row => row.r as OrganizationRow), pagination: paginationOf(total, query.limit) };
  }

  /** The organization as served (read path, one statement). @throws ResourceNotFound when absent or not readable. */
  async read(ctx: RequestContext, id: string): Promise<OrganizationRow> {
    const row = await organizationRead.byId(readerOf(ctx), ctx.principal, id);
    if (!row) throw new ResourceNotFound();
    return row.r as OrganizationRow;
  }

  /** @throws ResourceNotFound when absent or not readable by the caller (same answer for both). */
  async get(ctx: RequestContext, id: string): Promise<Organization> {
    const organization = await new OrganizationRepository(ctx.em).findReadable(ctx.principal, id);
    if (!organization) throw new ResourceNotFound();
    return organization;
  }

  /** Creates the organization with the calling user as its owner, in one transaction. */
  async create(ctx: RequestContext, input: CreateOrganizationInput): Promise<Organization> {
    if (ctx.principal.subject !== 'user' || !ctx.principal.subjectId) throw new Unauthorized();
    return this.createForUser(ctx, ctx.principal.subjectId, input);
  }

  /** Also used by the CLI, which acts for a user without a token. */
  async createForUser(
    ctx: Pick<RequestContext, 'em' | 'clock'>,
    userId: string,
    input: CreateOrganizationInput,
  ): Promise<Organization> {
    checkOrganizationFields(
      {
        name: input.name,
        slug: input.slug,
        defaultTaxBehavior: input.defaultTaxBehavior,
        country: input.country,
        prorationBehavior: input.subscriptionSettings?.prorationBehavior,
        prorationBehaviorUpgrade: input.subscriptionSettings?.prorationBehaviorUpgrade,
        prorationBehaviorDowngrade: input.subscriptionSettings?.prorationBehaviorDowngrade,
      },
      taxSettingsIssues(input.taxSettings, input.country ?? null, { country: null, taxId: null }),
    );
    const repository = new OrganizationRepository(ctx.em);
    if (await repository.findBySlug(input.slug)) throw new OrganizationSlugTaken(input.slug);
    const now = ctx.clock.now();
    const organization = ctx.em.create(Organization, {
      name: input.name.trim(),
      slug: input.slug,
      createdAt: now,
    } as Organization);
    applySettings(organization, input);
    ctx.em.create(Membership, {
      userId,
      organizationId: organization.id,
      role: MemberRole.OWNER,
      createdAt: now,
    } as Membership);
    try {
      await ctx.em.flush();
    } catch (error) {
      // The slug check above races with a concurrent create; the unique constraint decides.
      if ((error as { code?: string }).code === '23505') throw new OrganizationSlugTaken(input.slug);
      throw error;
    }
    await this.principals.announce(ctx.em, { subject: 'user', subjectId: userId });
    return organization;
  }

  /**
   * Applies the given fields; absent ones are left as they are (an empty input is a no-op).
   * @throws ResourceNotFound, CannotManageOrganization (a member without the owner/admin role)
   */
  async update(ctx: RequestContext, id: string, input: UpdateOrganizationInput): Promise<Organization> {
    const repository = new OrganizationRepository(ctx.em);
    const organization = await this.get(ctx, id);
    if (!(await repository.canManage(ctx.principal, organization.id))) throw new CannotManageOrganization();
    const country = input.country !== undefined ? (input.country ?? null) : organization.country;
    checkOrganizationFields(
      {
        name: input.name,
        defaultTaxBehavior: input.defaultTaxBehavior,
        country: input.country,
        prorationBehavior: input.subscriptionSettings?.prorationBehavior,
        prorationBehaviorUpgrade: input.subscriptionSettings?.prorationBehaviorUpgrade,
        prorationBehaviorDowngrade: input.subscriptionSettings?.prorationBehaviorDowngrade,
        resetProrationAllowed: organization.featureSettings.reset_proration_behavior_enabled,
      },
      taxSettingsIssues(input.taxSettings, country, {
        country: organization.country,
        taxId: organization.taxSettings.tax_id?.[0] ?? null,
      }),
    );
    if (input.name != null) organization.name = input.name.trim();
    applySettings(organization, input);
    if (input.disputeSettings != null)
      organization.disputeSettings = { auto_accept_below_amount: input.disputeSettings.autoAcceptBelowAmount ?? null };
    if (input.embedHosts != null) organization.embedHosts = input.embedHosts;
    if (input.ssoEnforced != null) organization.ssoEnforced = input.ssoEnforced;
    if (Object.values(input).some(v => v !== undefined)) organization.modifiedAt = ctx.clock.now();
    await ctx.em.flush();
    return organization;
  }

  async addMember(
    ctx: Pick<RequestContext, 'em' | 'clock'>,
    organizationId: string,
    userId: string,
    role: MemberRole,
  ): Promise<Membership> {
    const membership = ctx.em.create(Membership, {
      userId,
      organizationId,
      role,
      createdAt: ctx.clock.now(),
    } as Membership);
    await ctx.em.flush();
    await this.principals.announce(ctx.em, { subject: 'user', subjectId: userId });
    return membership;
  }
}

/** Copies the optional settings shared by create and update onto the entity. */
function applySettings(organization: Organization, input: CreateOrganizationInput | UpdateOrganizationInput): void {
  if (input.avatarUrl !== undefined) organization.avatarUrl = input.avatarUrl ?? null;
  if (input.email !== undefined) organization.email = input.email ?? null;
  if (input.website !== undefined) organization.website = input.website ?? null;
  if (input.socials != null) organization.socials = input.socials.map(s => ({ platform: s.platform, url: s.url }));
  if (input.details != null) {
    organization.details = { ...(organization.details ?? {}), ...snakeKeys<object>(input.details) };
    organization.detailsSubmittedAt ??= new Date();
  }
  if (input.country !== undefined) organization.country = input.country ?? null;
  if (input.defaultPresentmentCurrency != null)
    organization.defaultPresentmentCurrency = input.defaultPresentmentCurrency.toLowerCase();
  if (input.defaultTaxBehavior != null)
    organization.defaultTaxBehavior = input.defaultTaxBehavior as Organization['defaultTaxBehavior'];
  if (input.featureSettings != null) {
    organization.featureSettings = {
      ...organization.featureSettings,
      ...snakeKeys<Partial<FeatureSettings>>(withoutUndefined(input.featureSettings)),
    };
  }
  if (input.subscriptionSettings != null) {
    // Polar's keys are replaced as a whole; ours (by direction) stay when a Polar client leaves them out.
    const previous = organization.subscriptionSettings;
    const next = snakeKeys<SubscriptionSettings>(withoutUndefined(input.subscriptionSettings));
    organization.subscriptionSettings = {
      ...next,
      proration_behavior_upgrade:
        next.proration_behavior_upgrade === undefined
          ? (previous?.proration_behavior_upgrade ?? null)
          : next.proration_behavior_upgrade,
      proration_behavior_downgrade:
        next.proration_behavior_downgrade === undefined
          ? (previous?.proration_behavior_downgrade ?? null)
          : next.proration_behavior_downgrade,
    };
  }
  if (input.customerEmailSettings != null) {
    organization.customerEmailSettings = {
      ...organization.customerEmailSettings,
      ...snakeKeys<Partial<CustomerEmailSettings>>(withoutUndefined(input.customerEmailSettings)),
    };
  }
  if (input.taxSettings != null)
    organization.taxSettings = mergeTaxSettings(organization.taxSettings, input.taxSettings, organization.country);
  if (input.customerPortalSettings != null) {
    const current = camelKeys<Record<string, object>>(organization.customerPortalSettings);
    const next = input.customerPortalSettings;
    organization.customerPortalSettings = snakeKeys<CustomerPortalSettings>({
      usage: { ...current.usage, ...withoutUndefined(next.usage) },
      subscription: { ...current.subscription, ...withoutUndefined(next.subscription) },
      customer: { ...current.customer, ...withoutUndefined(next.customer ?? {}) },
    });
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
