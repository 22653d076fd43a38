import { ResourceNotFound, type ValidationIssue } from '../../../kit/errors.js';
import { pageWindow, paginationOf, type Pagination, type PageRequest } from '../../../kit/graphql/pagination.js';
import { targetOrganization } from '../../../kit/target-organization.js';
import type { RequestContext } from '../../../kit/request-context.js';
import type { Product } from '../products/product.entity.js';
import { ProductRepository } from '../products/product.repository.js';
import { ProductType } from '../products/product.type.js';
import type { DiscountDuration, DiscountType as DiscountKind } from '../shared/enums.js';
import { throwIfAny } from '../shared/issues.js';
import { Discount } from './discount.entity.js';
import { DiscountCodeTaken } from './discount.errors.js';
import type { CreateDiscountInput, UpdateDiscountInput } from './discount.inputs.js';
import { type DiscountFilters, DiscountRepository } from './discount.repository.js';
import { discountFromRow, discountRead } from './discount.read.js';
import { DISCOUNT_DEFAULT_SORTING, DISCOUNT_SORT_KEYS } from './discount.sorting.js';
import { sortCriteria } from '../shared/sorting.js';
import { DiscountType } from './discount.type.js';
import { discountIssues, type DiscountState } from './discount.validation.js';
import { discountEvent } from './discount.events.js';
import { runWrite } from '../events/run-write.js';
import { tenantScope } from '../../../kit/database/tenant-scope.js';
import { loadForWrite } from '../../../kit/database/write/load-for-write.js';
import type { Principal } from '../../../kit/principal.js';
import type { EntityManager } from '@mikro-orm/postgresql';

export interface DiscountListQuery extends PageRequest, DiscountFilters {
  sorting?: string[] | null;
}

/** Discount use cases. Stateless: every call receives the request context. */
export class DiscountService {
  /** One page through the read path: discounts with their restricted products, one statement. */
  async list(
    ctx: RequestContext,
    query: DiscountListQuery,
  ): Promise<{ items: DiscountType[]; pagination: Pagination }> {
    const { rows, total } = await discountRead.page(
      ctx.em,
      ctx.principal,
      query.query ? { query: query.query } : {},
      sortCriteria(query.sorting ?? [], DISCOUNT_SORT_KEYS, DISCOUNT_DEFAULT_SORTING),
      pageWindow(query),
      { organizationIds: query.organizationIds },
    );
    return { items: rows.map(discountFromRow), pagination: paginationOf(total, query.limit) };
  }

  /** The discount as served (read path, one statement). @throws ResourceNotFound when absent or not readable. */
  async get(ctx: RequestContext, id: string): Promise<DiscountType> {
    const row = await discountRead.byId(ctx.em, ctx.principal, id);
    if (!row) throw new ResourceNotFound();
    return discountFromRow(row);
  }

  async create(ctx: RequestContext, input: CreateDiscountInput): Promise<DiscountType> {
    const { amount, currency, issues } = fixedAmount(input);
    const state: DiscountState = {
      name: input.name,
      type: input.type,
      duration: input.duration,
      durationInMonths: input.duration === 'repeating' ? (input.durationInMonths ?? null) : null,
      amount: input.type === 'fixed' ? amount : null,
      currency: input.type === 'fixed' ? (currency ?? 'usd') : null,
      basisPoints: input.type === 'percentage' ? (input.basisPoints ?? null) : null,
      code: input.code || null,
      startsAt: input.startsAt ?? null,
      endsAt: input.endsAt ?? null,
      maxRedemptions: input.maxRedemptions ?? null,
      maxRedemptionsPerCustomer: input.maxRedemptionsPerCustomer ?? null,
    };
    throwIfAny([...issues, ...discountIssues(state, input.metadata)]);
    const organizationId = await targetOrganization(ctx.principal, input.organizationId);
    const { productIds, products } = await checkProducts(ctx.em, organizationId, input.products ?? []);
    const now = ctx.clock.now();
    return runWrite(ctx.em, async em => {
      if (state.code && (await new DiscountRepository(em).findByCode(organizationId, state.code)))
        throw new DiscountCodeTaken(state.code);
      const discount = em.create(Discount, {
        ...state,
        name: state.name.trim(),
        type: state.type as DiscountKind,
        duration: state.duration as DiscountDuration,
        organizationId,
        productIds,
        metadata: input.metadata ?? {},
        redemptionsCount: 0,
        createdAt: now,
        modifiedAt: null,
        deletedAt: null,
      } as Discount);
      const type = await toType(em, ctx.principal, discount, products);
      await flushCode(em, state.code);
      return { result: type, events: [discountEvent('discount.created', organizationId, type, now)] };
    });
  }

  /**
   * `PATCH /v1/discounts/{id}`: one locking load in the read path's scope; `discount.updated` only when
   * something changed. A code taken meanwhile by a concurrent write answers 409 as the check before it.
   */
  async update(ctx: RequestContext, id: string, input: UpdateDiscountInput): Promise<DiscountType> {
    return runWrite(ctx.em, async em => {
      const discount = await loadLiveDiscount(ctx, em, id);
      const type = input.type ?? discount.type;
      const duration = input.duration ?? discount.duration;
      const given = fixedAmount(input);
      const issues: ValidationIssue[] = [...given.issues];
      if (input.name === null)
        issues.push({ type: 'string_type', loc: ['body', 'name'], msg: 'Input should be a valid string', input: null });
      const state: DiscountState = {
        name: input.name ?? discount.name,
        type,
        duration,
        durationInMonths:
          duration === 'repeating'
            ? input.durationInMonths !== undefined
              ? input.durationInMonths
              : discount.durationInMonths
            : null,
        amount: type === 'fixed' ? (given.amount ?? discount.amount) : null,
        currency: type === 'fixed' ? (given.currency ?? discount.currency ?? 'usd') : null,
        basisPoints: type === 'percentage' ? (input.basisPoints ?? discount.basisPoints) : null,
        code: input.code !== undefined ? input.code || null : discount.code,
        startsAt: input.startsAt !== undefined ? input.startsAt : discount.startsAt,
        endsAt: input.endsAt !== undefined ? input.endsAt : discount.endsAt,
        maxRedemptions: input.maxRedemptions !== undefined ? input.maxRedemptions : discount.maxRedemptions,
        maxRedemptionsPerCustomer:
          input.maxRedemptionsPerCustomer !== undefined
            ? input.maxRedemptionsPerCustomer
            : discount.maxRedemptionsPerCustomer,
      };
      throwIfAny([...issues, ...discountIssues(state, input.metadata)]);
      const restriction =
        input.products != null ? await checkProducts(em, discount.organizationId, input.products) : null;
      const productIds = restriction?.productIds ?? discount.productIds;
      if (state.code && state.code.toLowerCase() !== discount.code?.toLowerCase()) {
        const holder = await new DiscountRepository(em).findByCode(discount.organizationId, state.code);
        if (holder && holder.id !== discount.id) throw new DiscountCodeTaken(state.code);
      }
      const before = JSON.stringify(snapshot(discount));
      Object.assign(discount, {
        ...state,
        name: state.name.trim(),
        type: state.type as DiscountKind,
        duration: state.duration as DiscountDuration,
        productIds,
      });
      if (input.metadata != null) discount.metadata = input.metadata;
      const now = ctx.clock.now();
      const changed = before !== JSON.stringify(snapshot(discount));
      if (changed) discount.modifiedAt = now;
      const result = await toType(em, ctx.principal, discount, restriction?.products);
      await flushCode(em, state.code);
      return {
        result,
        events: changed ? [discountEvent('discount.updated', discount.organizationId, result, now)] : [],
      };
    });
  }

  /** Soft delete: the discount disappears from reads; subscriptions that use it keep it. */
  async delete(ctx: RequestContext, id: string): Promise<void> {
    const now = ctx.clock.now();
    await runWrite(ctx.em, async em => {
      const discount = await loadLiveDiscount(ctx, em, id);
      discount.deletedAt = now;
      const type = await toType(em, ctx.principal, discount);
      return { result: undefined, events: [discountEvent('discount.deleted', discount.organizationId, type, now)] };
    });
  }
}

/** A live discount the caller may change, locked (404 when deleted, missing or out of the read path's scope). */
function loadLiveDiscount(ctx: RequestContext, em: EntityManager, id: string): Promise<Discount> {
  return loadForWrite(em, Discount, id, tenantScope(ctx.principal, discountRead.definition.readers), {
    where: { deletedAt: null },
  });
}

/** Flushes a change that may set a code: a code taken by a concurrent write is the partial unique index's 409. */
async function flushCode(em: EntityManager, code: string | null): Promise<void> {
  try {
    await em.flush();
  } catch (error) {
    // The code check races with a concurrent create; the partial unique index decides.
    if ((error as { code?: string }).code === '23505' && code) throw new DiscountCodeTaken(code);
    throw error;
  }
}

/** Restricted products must be products of the discount's organization; returns them with their ids in input order. */
async function checkProducts(
  em: EntityManager,
  organizationId: string,
  ids: string[],
): Promise<{ productIds: string[]; products: Product[] }> {
  const productIds = [...new Set(ids)];
  if (!productIds.length) return { productIds, products: [] };
  const products = await new ProductRepository(em).findInOrganization(organizationId, productIds);
  const found = new Set(products.map(p => p.id));
  throwIfAny(
    ids.flatMap((id, i) =>
      found.has(id)
        ? []
        : [{ type: 'value_error', loc: ['body', 'products', i], msg: 'Product does not exist.', input: id }],
    ),
  );
  return { productIds, products };
}

/** The discount as served, with its restricted products: `products` when the caller has just loaded them
 * (create, update), else the readable ones (one query) with their live prices (one query). */
async function toType(
  em: EntityManager,
  principal: Principal,
  discount: Discount,
  products?: Product[],
): Promise<DiscountType> {
  const restricted =
    products ??
    (discount.productIds.length
      ? await new ProductRepository(em).findReadableMany(principal, [...new Set(discount.productIds)])
      : []);
  if (!restricted.length) return withProducts(discount, new Map());
  const prices = await new ProductRepository(em).pricesOf(restricted.map(p => p.id));
  return withProducts(
    discount,
    new Map(restricted.map(p => [p.id, ProductType.fromEntity(p, prices.get(p.id) ?? [])])),
  );
}

/** `amounts` (one currency) or the deprecated `amount` + `currency`. */
function fixedAmount(input: {
  amount?: bigint | null;
  currency?: string | null;
  amounts?: { currency: string; amount: bigint }[] | null;
}) {
  const issues: ValidationIssue[] = [];
  if (input.amounts?.length) {
    if (input.amounts.length > 1)
      issues.push({
        type: 'value_error',
        loc: ['body', 'amounts'],
        msg: 'Only one currency is supported per discount.',
        input: input.amounts.map(a => a.currency),
      });
    return { amount: input.amounts[0].amount, currency: input.amounts[0].currency.toLowerCase(), issues };
  }
  return { amount: input.amount ?? null, currency: input.currency?.toLowerCase() ?? null, issues };
}

function withProducts(discount: Discount, products: Map<string, ProductType>): DiscountType {
  return DiscountType.fromEntity(
    discount,
    discount.productIds.flatMap(id => products.get(id) ?? []),
  );
}

function snapshot(d: Discount) {
  return [
    d.name,
    d.type,
    d.duration,
    d.durationInMonths,
    d.amount?.toString(),
    d.currency,
    d.basisPoints,
    d.code,
    d.startsAt?.getTime(),
    d.endsAt?.getTime(),
    d.maxRedemptions,
    d.maxRedemptionsPerCustomer,
    d.productIds,
    d.metadata,
  ];
}
