import { ResourceNotFound } from '../../../kit/errors.js';
import { CORE_READERS, tenantScope } from '../../../kit/database/tenant-scope.js';
import { pageWindow, paginationOf, type Pagination, type PageRequest } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { sortCriteria } from '../shared/sorting.js';
import type { Benefit } from './benefit.entity.js';
import {
  benefitGrantFromRow,
  benefitGrantRead,
  type BenefitGrantReadFilters,
  benefitHeldByEmail,
  benefitRead,
  benefitsHeldByEmail,
} from './benefit.read.js';
import { BENEFIT_GRANT_DEFAULT_SORTING, BENEFIT_GRANT_SORT_KEYS } from './benefit.sorting.js';
import { type BenefitGrantType, BenefitType } from './benefit.type.js';
import type { CustomerStateType } from './customer-state.js';
import { loadCustomerState } from './customer-state.read.js';

export interface BenefitGrantListQuery extends PageRequest, BenefitGrantReadFilters {
  organizationIds?: string[] | null;
  sorting?: string[] | null;
}

export interface UserBenefitQuery extends PageRequest {
  types?: string[] | null;
  organizationIds?: string[] | null;
  orderIds?: string[] | null;
  subscriptionIds?: string[] | null;
}

/** Reads of grants: the grant lists, a customer's state, and a signed-in person's benefits. */
export class BenefitGrantService {
  async list(
    ctx: RequestContext,
    query: BenefitGrantListQuery,
  ): Promise<{ items: BenefitGrantType[]; pagination: Pagination }> {
    const filters: BenefitGrantReadFilters = {};
    if (query.benefitId) filters.benefitId = query.benefitId;
    if (query.customerIds?.length) filters.customerIds = query.customerIds;
    if (query.externalCustomerIds?.length) filters.externalCustomerIds = query.externalCustomerIds;
    if (query.isGranted != null) filters.isGranted = query.isGranted;
    const { rows, total } = await benefitGrantRead.page(
      ctx.em,
      ctx.principal,
      filters,
      sortCriteria(query.sorting ?? [], BENEFIT_GRANT_SORT_KEYS, BENEFIT_GRANT_DEFAULT_SORTING),
      pageWindow(query),
      { organizationIds: query.organizationIds },
    );
    return { items: rows.map(benefitGrantFromRow), pagination: paginationOf(total, query.limit) };
  }

  /** `/v1/benefits/{id}/grants`: 404 when the benefit is not readable. */
  async ofBenefit(
    ctx: RequestContext,
    benefitId: string,
    query: BenefitGrantListQuery,
  ): Promise<{ items: BenefitGrantType[]; pagination: Pagination }> {
    if (!(await benefitRead.byId(ctx.em, ctx.principal, benefitId))) throw new ResourceNotFound();
    return this.list(ctx, { ...query, benefitId });
  }

  async customerState(ctx: RequestContext, where: { id: string } | { externalId: string }): Promise<CustomerStateType> {
    const scope = tenantScope(ctx.principal, CORE_READERS);
    const state = scope ? await loadCustomerState(ctx.em, where, scope.organizationIds) : null;
    if (!state) throw new ResourceNotFound();
    return state;
  }

  /**
   * The benefits the signed-in person holds as a customer: granted to any customer whose e-mail is
   * theirs, in any organization (not only the ones they are a member of: they are the customer here).
   */
  async ofUser(
    ctx: RequestContext,
    email: string,
    query: UserBenefitQuery,
  ): Promise<{ items: BenefitType[]; pagination: Pagination }> {
    const { limit, offset } = pageWindow(query);
    const rows = await benefitsHeldByEmail(
      ctx.em,
      email,
      {
        types: query.types?.length ? query.types : null,
        organizationIds: query.organizationIds?.length ? query.organizationIds : null,
        orderIds: query.orderIds?.length ? query.orderIds : null,
        subscriptionIds: query.subscriptionIds?.length ? query.subscriptionIds : null,
      },
      limit,
      offset,
    );
    const total = rows.length ? Number(rows[0].total) : 0;
    return {
      items: rows.map(r => BenefitType.fromEntity(r.r as Benefit)),
      pagination: paginationOf(total, query.limit),
    };
  }

  async oneOfUser(ctx: RequestContext, email: string, id: string): Promise<BenefitType> {
    const rows = await benefitHeldByEmail(ctx.em, email, id);
    if (!rows[0]) throw new ResourceNotFound();
    return BenefitType.fromEntity(rows[0].r as Benefit);
  }
}
