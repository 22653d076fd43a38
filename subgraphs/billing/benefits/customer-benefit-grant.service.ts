import { NotPermitted, PolarRequestValidationError, ResourceNotFound } from '../../../kit/errors.js';
import { pageWindow, type PageRequest, type Pagination, paginationOf } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import type { JobRunner } from '../jobs/job-queue.js';
import { organizationNow } from '../time/organization-clocks.js';
import { sortCriteria } from '../shared/sorting.js';
import { BenefitRepository } from './benefit.repository.js';
import { BenefitGrant } from './benefit-grant.entity.js';
import { enqueueGrantRefresh } from './benefit-grants.job.js';
import { CUSTOMER_BENEFIT_GRANT_DEFAULT_SORTING, CUSTOMER_BENEFIT_GRANT_SORT_KEYS } from './benefit.sorting.js';
import {
  customerBenefitGrantFromRow,
  customerBenefitGrantRead,
  type CustomerBenefitGrantReadFilters,
} from './customer-benefit-grant.read.js';
import type { CustomerBenefitGrantType } from './customer-benefit-grant.type.js';
import { tenantScope } from '../../../kit/database/tenant-scope.js';
import { loadForWrite } from '../../../kit/database/write/load-for-write.js';
import { runWrite } from '../events/run-write.js';

export interface CustomerBenefitGrantQuery extends PageRequest, CustomerBenefitGrantReadFilters {
  sorting?: string[] | null;
}

/** What the customer may set per integration type; any other type takes no properties. */
const ACCOUNT_FORMATS: Record<string, { pattern: RegExp; msg: string }> = {
  // A Discord user id is a snowflake; a GitHub login is 1–39 letters, digits or single hyphens.
  discord: { pattern: /^\d{1,20}$/, msg: 'Not a Discord user id.' },
  github_repository: { pattern: /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/, msg: 'Not a GitHub login.' },
};
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The customer portal's grants (Polar's server/polar/customer_portal/service/benefit_grant.py): the
 * session customer's own, listed and read through the read path; updated to connect the account an
 * integration grants to, which enqueues the grant's job in the same transaction.
 */
export class CustomerBenefitGrantService {
  constructor(private readonly jobs: JobRunner | null) {}

  async list(
    ctx: RequestContext,
    query: CustomerBenefitGrantQuery,
  ): Promise<{ items: CustomerBenefitGrantType[]; pagination: Pagination }> {
    const filters: CustomerBenefitGrantReadFilters = {};
    if (query.query) filters.query = query.query;
    if (query.types?.length) filters.types = query.types;
    if (query.benefitIds?.length) filters.benefitIds = query.benefitIds;
    if (query.checkoutIds?.length) filters.checkoutIds = query.checkoutIds;
    if (query.orderIds?.length) filters.orderIds = query.orderIds;
    if (query.subscriptionIds?.length) filters.subscriptionIds = query.subscriptionIds;
    if (query.memberIds?.length) filters.memberIds = query.memberIds;
    const { rows, total } = await customerBenefitGrantRead.page(
      ctx.em,
      ctx.principal,
      filters,
      sortCriteria(query.sorting ?? [], CUSTOMER_BENEFIT_GRANT_SORT_KEYS, CUSTOMER_BENEFIT_GRANT_DEFAULT_SORTING),
      pageWindow(query),
    );
    return { items: rows.map(customerBenefitGrantFromRow), pagination: paginationOf(total, query.limit) };
  }

  /** Another customer's grant, a revoked one or one of a benefit that is not public: 404. */
  async get(ctx: RequestContext, id: string): Promise<CustomerBenefitGrantType> {
    const row = await customerBenefitGrantRead.byId(ctx.em, ctx.principal, id);
    if (!row) throw new ResourceNotFound();
    return customerBenefitGrantFromRow(row);
  }

  /**
   * Polar's order: 404 when not the customer's (or its benefit is not public), 403 `NotPermitted` when
   * revoked, 422 when `benefit_type` is not the grant's. For discord and github_repository
   * `properties.account_id` (null disconnects), for slack_shared_channel `properties.invited_email`
   * (a new address drops the previous invite) are merged into the grant's properties, its error is
   * cleared and its job is enqueued: the grant follows within the job (the answer shows it before).
   * The grant is loaded for write among the customer's own (billing's write frame); the update itself
   * records no events (the job's grant events do).
   */
  async update(
    ctx: RequestContext,
    id: string,
    input: { benefitType: string; properties?: Record<string, unknown> | null },
  ): Promise<CustomerBenefitGrantType> {
    const customerId = ctx.principal.subjectId;
    if (ctx.principal.subject !== 'customer' || !customerId) throw new ResourceNotFound();
    const key = await runWrite(ctx.em, async em => {
      const grant = await loadForWrite(
        em,
        BenefitGrant,
        id,
        tenantScope(ctx.principal, customerBenefitGrantRead.definition.readers),
        { tenant: { customer: 'customerId' } },
      );
      const benefit = await new BenefitRepository(em).findById(grant.benefitId);
      if (benefit?.visibility !== 'public') throw new ResourceNotFound();
      if (grant.revokedAt) throw new NotPermitted('Cannot update a revoked benefit grant.');
      if (input.benefitType !== benefit.type)
        throw invalid(
          ['body', 'benefit_type'],
          'Benefit type must match the existing granted benefit type.',
          input.benefitType,
        );
      const update = propertiesUpdate(benefit.type, input.properties ?? {});
      if (!update) return { result: null };
      const properties: Record<string, unknown> = { ...grant.properties, ...update };
      if ('invited_email' in update && update.invited_email !== grant.properties.invited_email) {
        delete properties.invite_id;
        delete properties.invite_url;
      }
      grant.properties = properties;
      grant.error = null;
      grant.modifiedAt = await organizationNow({ ...ctx, em }, grant.organizationId);
      // Due at once (epoch), as the reconcile jobs: the organization's sandbox clock may run ahead.
      return { result: await enqueueGrantRefresh(em, grant.id, new Date(0)) };
    });
    // The grant as this update left it, read before its job starts: otherwise the answer would depend
    // on whether the job (which may set a new error at once) finished first.
    const row = await customerBenefitGrantRead.byId(ctx.em, ctx.principal, id);
    // After the commit, without waiting for the vendor: the worker loop picks it up otherwise.
    if (key && this.jobs) this.jobs.runNow(key).catch(() => undefined);
    if (!row) throw new ResourceNotFound();
    return customerBenefitGrantFromRow(row);
  }
}

/** The properties a customer may set on a grant of this type, checked; null when the type has none. */
function propertiesUpdate(type: string, properties: Record<string, unknown>): Record<string, unknown> | null {
  const format = ACCOUNT_FORMATS[type];
  if (format) {
    const account = properties.account_id;
    if (account === null) return { account_id: null };
    if (typeof account !== 'string' || !format.pattern.test(account))
      throw invalid(['body', 'properties', 'account_id'], format.msg, account ?? null);
    return { account_id: account };
  }
  if (type === 'slack_shared_channel') {
    const email = properties.invited_email;
    if (typeof email !== 'string' || !EMAIL.test(email))
      throw invalid(
        ['body', 'properties', 'invited_email'],
        'value is not a valid email address: An email address must have an @-sign.',
        email ?? null,
      );
    return { invited_email: email };
  }
  return null;
}

function invalid(loc: string[], msg: string, input: unknown): PolarRequestValidationError {
  return new PolarRequestValidationError([{ type: 'value_error', loc, msg, input }]);
}
