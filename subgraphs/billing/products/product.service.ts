import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type AttachedCustomFieldView,
  attachedViewsOf,
  replaceAttachedCustomFields,
} from '../custom-fields/product-custom-fields.js';
import { tenantScope } from '../../../kit/database/tenant-scope.js';
import { loadForWrite } from '../../../kit/database/write/load-for-write.js';
import { ResourceNotFound, type ValidationIssue } from '../../../kit/errors.js';
import { pageWindow, paginationOf, type Pagination, type PageRequest } from '../../../kit/graphql/pagination.js';
import { targetOrganization } from '../../../kit/target-organization.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { runWrite } from '../events/run-write.js';
import { ProductNotDeletable } from './product.errors.js';
import { productEvent } from './product.events.js';
import { PriceAmountType, type ProductVisibility, type RecurringInterval } from '../shared/enums.js';
import type { CreateProductInput, ProductPriceInput, UpdateProductInput } from './product.inputs.js';
import { ProductPrice } from './product-price.entity.js';
import { Product } from './product.entity.js';
import { type ProductFilters, ProductRepository } from './product.repository.js';
import { productRead, type ProductReadFilters } from './product.read.js';
import { PRODUCT_DEFAULT_SORTING, PRODUCT_SORT_KEYS } from './product.sorting.js';
import { sortCriteria } from '../shared/sorting.js';
import { ProductType, productFromRow, type ProductRow } from './product.type.js';
import { throwIfAny } from '../shared/issues.js';
import { DEFAULT_CUSTOM_MINIMUM, priceIssues, productFieldIssues } from './product.validation.js';
import { embedMeters, meteredPriceContextIssues } from './metered-price.validation.js';

export interface ProductListQuery extends PageRequest, ProductFilters {
  sorting?: string[] | null;
}

/** A product with the prices it shows (its live ones, oldest first). */
export interface ProductWithPrices {
  product: Product;
  prices: ProductPrice[];
  /** The custom fields a create attached (docs/custom-fields.md#on-products). */
  attached?: AttachedCustomFieldView[];
}

/** Product use cases. Stateless: every call receives the request context. */
export class ProductService {
  /** One page through the read path: one statement (products with their live prices), plus the count when needed. */
  async list(ctx: RequestContext, query: ProductListQuery): Promise<{ items: ProductType[]; pagination: Pagination }> {
    const filters: ProductReadFilters = {};
    if (query.ids?.length) filters.ids = query.ids;
    if (query.query) filters.query = query.query;
    if (query.isArchived != null) filters.isArchived = query.isArchived;
    if (query.isRecurring != null) filters.isRecurring = query.isRecurring;
    if (query.visibility?.length) filters.visibility = query.visibility;
    const { rows, total } = await productRead.page(
      ctx.em,
      ctx.principal,
      filters,
      sortCriteria(query.sorting ?? [], PRODUCT_SORT_KEYS, PRODUCT_DEFAULT_SORTING),
      pageWindow(query),
      { organizationIds: query.organizationIds },
    );
    return {
      items: rows.map(row => productFromRow(row.product as ProductRow)),
      pagination: paginationOf(total, query.limit),
    };
  }

  /** The product as served (read path, one statement). @throws ResourceNotFound when absent or not readable. */
  async read(ctx: RequestContext, id: string): Promise<ProductType> {
    const row = await productRead.byId(ctx.em, ctx.principal, id);
    if (!row) throw new ResourceNotFound();
    return productFromRow(row.product as ProductRow);
  }

  /** @throws ResourceNotFound when absent or not readable by the caller (same answer for both). */
  async get(ctx: RequestContext, id: string): Promise<ProductWithPrices> {
    const repository = new ProductRepository(ctx.em);
    const product = await repository.findReadable(ctx.principal, id);
    if (!product) throw new ResourceNotFound();
    return { product, prices: (await repository.pricesOf([id])).get(id) ?? [] };
  }

  /** Creates a one-time product (no `recurringInterval`) or a recurring one, with its prices. */
  async create(ctx: RequestContext, input: CreateProductInput): Promise<ProductWithPrices> {
    const recurring = input.recurringInterval != null;
    const issues = [...productFieldIssues(input), ...priceIssues(input.prices, false)];
    if (!recurring && input.recurringIntervalCount != null) {
      issues.push({
        type: 'value_error',
        loc: ['body', 'recurring_interval_count'],
        msg: 'recurring_interval_count requires recurring_interval.',
        input: input.recurringIntervalCount,
      });
    }
    issues.push(...trialIssues(recurring, input.trialInterval, input.trialIntervalCount));
    throwIfAny(issues);
    const organizationId = await targetOrganization(ctx.principal, input.organizationId);
    const now = ctx.clock.now();
    return runWrite(ctx.em, async em => {
      throwIfAny(await meteredPriceContextIssues(em, organizationId, recurring, input.prices));
      const product = em.create(Product, {
        organizationId,
        name: input.name.trim(),
        description: input.description ?? null,
        visibility: (input.visibility ?? 'public') as ProductVisibility,
        recurringInterval: (input.recurringInterval ?? null) as RecurringInterval | null,
        recurringIntervalCount: recurring ? (input.recurringIntervalCount ?? 1) : null,
        trialInterval: (input.trialInterval ?? null) as RecurringInterval | null,
        trialIntervalCount: input.trialIntervalCount ?? null,
        isArchived: false,
        metadata: input.metadata ?? {},
        createdAt: now,
        modifiedAt: null,
      } as Product);
      const prices = input.prices.map(p => this.newPrice(em, product.id, p, now));
      await embedMeters(em, prices);
      const { issues: attachIssues, views: attached } = await replaceAttachedCustomFields(
        em,
        product,
        input.attachedCustomFields ?? [],
      );
      throwIfAny(attachIssues);
      return {
        result: { product, prices, attached },
        events: [productEvent('product.created', product, prices, now, true, attached)],
      };
    });
  }

  /**
   * Applies the given fields; absent ones are left as they are. `prices`, when given, is the complete
   * new list: `{id}` keeps a live price of this product, new objects are added, the rest is archived.
   * @throws ResourceNotFound, PolarRequestValidationError
   */
  async update(ctx: RequestContext, id: string, input: UpdateProductInput): Promise<ProductWithPrices> {
    // One locking load in the read path's scope: concurrent updates of a product take turns.
    return runWrite(ctx.em, async em => {
      const product = await loadForWrite(em, Product, id, tenantScope(ctx.principal, productRead.definition.readers), {
        where: { deletedAt: null },
      });
      const current = (await new ProductRepository(em).pricesOf([id])).get(id) ?? [];
      const issues: ValidationIssue[] = [...productFieldIssues({ ...input, name: input.name ?? undefined })];
      if (input.name === null)
        issues.push({ type: 'string_type', loc: ['body', 'name'], msg: 'Input should be a valid string', input: null });
      if (input.visibility === null)
        issues.push({
          type: 'enum',
          loc: ['body', 'visibility'],
          msg: "Input should be 'draft', 'private' or 'public'",
          input: null,
        });
      if (input.recurringInterval !== undefined) {
        if (!product.isRecurring && input.recurringInterval !== null) {
          issues.push({
            type: 'value_error',
            loc: ['body', 'recurring_interval'],
            msg: 'A one-time product cannot become recurring.',
            input: input.recurringInterval,
          });
        } else if (product.isRecurring && input.recurringInterval === null) {
          issues.push({
            type: 'value_error',
            loc: ['body', 'recurring_interval'],
            msg: 'A recurring product cannot become one-time.',
            input: null,
          });
        }
      }
      if (input.recurringIntervalCount != null && !product.isRecurring) {
        issues.push({
          type: 'value_error',
          loc: ['body', 'recurring_interval_count'],
          msg: 'A one-time product has no recurring interval.',
          input: input.recurringIntervalCount,
        });
      }
      if (input.trialInterval !== undefined || input.trialIntervalCount !== undefined) {
        const interval = input.trialInterval !== undefined ? input.trialInterval : product.trialInterval;
        const count = input.trialIntervalCount !== undefined ? input.trialIntervalCount : product.trialIntervalCount;
        issues.push(...trialIssues(product.isRecurring, interval, count));
      }
      const kept = new Set<string>();
      if (input.prices != null) {
        issues.push(...priceIssues(input.prices, true));
        const live = new Map(current.map(p => [p.id, p]));
        input.prices.forEach((price, i) => {
          if (price.id == null) return;
          const existing = live.get(price.id);
          if (!existing)
            issues.push({
              type: 'value_error',
              loc: ['body', 'prices', i, 'id'],
              msg: 'Price does not exist.',
              input: price.id,
            });
          else if (kept.has(price.id))
            issues.push({
              type: 'value_error',
              loc: ['body', 'prices', i, 'id'],
              msg: 'Price is listed twice.',
              input: price.id,
            });
          kept.add(price.id);
        });
        const isStatic = (p: { amountType?: string | null }) => p.amountType !== PriceAmountType.METERED_UNIT;
        const currencies = [
          ...current.filter(p => kept.has(p.id) && isStatic(p)).map(p => p.priceCurrency),
          ...input.prices.filter(p => p.id == null && isStatic(p)).map(p => (p.priceCurrency ?? 'usd').toLowerCase()),
        ];
        issues.push(
          ...(await meteredPriceContextIssues(
            em,
            product.organizationId,
            product.isRecurring,
            input.prices,
            current.filter(p => kept.has(p.id)),
          )),
        );
        if (
          new Set(currencies).size !== currencies.length &&
          !issues.some(i => i.msg.startsWith('Only one static price'))
        ) {
          issues.push({
            type: 'value_error',
            loc: ['body', 'prices'],
            msg: 'Only one static price per currency is allowed.',
            input: currencies,
          });
        }
      }
      throwIfAny(issues);

      const now = ctx.clock.now();
      let changed = false;
      const set = <K extends keyof Product>(key: K, value: Product[K]) => {
        if (product[key] !== value) {
          product[key] = value;
          changed = true;
        }
      };
      if (input.name != null) set('name', input.name.trim());
      if (input.description !== undefined) set('description', input.description ?? null);
      if (input.visibility != null) set('visibility', input.visibility as ProductVisibility);
      if (input.recurringInterval != null) set('recurringInterval', input.recurringInterval as RecurringInterval);
      if (input.recurringIntervalCount != null) set('recurringIntervalCount', input.recurringIntervalCount);
      if (input.trialInterval !== undefined)
        set('trialInterval', (input.trialInterval ?? null) as RecurringInterval | null);
      if (input.trialIntervalCount !== undefined) set('trialIntervalCount', input.trialIntervalCount ?? null);
      if (input.isArchived != null) set('isArchived', input.isArchived);
      if (input.metadata != null) {
        product.metadata = input.metadata;
        changed = true;
      }
      let prices = current;
      if (input.prices != null) {
        for (const price of current) {
          if (!kept.has(price.id)) {
            price.isArchived = true;
            price.modifiedAt = now;
            changed = true;
          }
        }
        const added = input.prices.filter(p => p.id == null).map(p => this.newPrice(em, product.id, p, now));
        if (added.length) changed = true;
        prices = [...current.filter(p => kept.has(p.id)), ...added];
      }
      await embedMeters(em, prices);
      let attached: AttachedCustomFieldView[];
      if (input.attachedCustomFields != null) {
        const replaced = await replaceAttachedCustomFields(em, product, input.attachedCustomFields);
        throwIfAny(replaced.issues);
        attached = replaced.views;
        changed = true;
      } else attached = changed ? await attachedViewsOf(em, product.id) : [];
      if (changed) product.modifiedAt = now;
      return {
        result: { product, prices, attached },
        events: changed
          ? [
              productEvent(
                'product.updated',
                product,
                prices,
                now,
                await new ProductRepository(em).isDeletable(product),
                attached,
              ),
            ]
          : [],
      };
    });
  }

  /**
   * `DELETE /v1/products/{id}`: a soft delete of a product nothing uses, by the one rule `is_deletable`
   * shows (`ProductRepository.isDeletable`). The row is locked first, so two deletes take turns. No event:
   * Polar has no `product.deleted` webhook (docs/products.md#deleting-a-product).
   * @throws ResourceNotFound (absent, deleted already, not readable), ProductNotDeletable (409)
   */
  async delete(ctx: RequestContext, id: string): Promise<void> {
    await runWrite(ctx.em, async em => {
      const product = await loadForWrite(em, Product, id, tenantScope(ctx.principal, productRead.definition.readers), {
        where: { deletedAt: null },
      });
      if (!(await new ProductRepository(em).isDeletable(product))) throw new ProductNotDeletable();
      const now = ctx.clock.now();
      product.deletedAt = now;
      product.modifiedAt = now;
      return { result: undefined, events: [] };
    });
  }

  private newPrice(em: EntityManager, productId: string, input: ProductPriceInput, now: Date): ProductPrice {
    const amountType = input.amountType as PriceAmountType;
    return em.create(ProductPrice, {
      productId,
      amountType,
      priceCurrency: (input.priceCurrency ?? 'usd').toLowerCase(),
      taxBehavior: input.taxBehavior ?? null,
      source: 'catalog',
      isArchived: false,
      priceAmount: amountType === PriceAmountType.FIXED ? input.priceAmount! : null,
      minimumAmount: amountType === PriceAmountType.CUSTOM ? (input.minimumAmount ?? DEFAULT_CUSTOM_MINIMUM) : null,
      maximumAmount: amountType === PriceAmountType.CUSTOM ? (input.maximumAmount ?? null) : null,
      presetAmount: amountType === PriceAmountType.CUSTOM ? (input.presetAmount ?? null) : null,
      seatTiers:
        amountType === PriceAmountType.SEAT_BASED
          ? {
              seat_tier_type: (input.seatTiers!.seatTierType ?? 'volume') as 'volume' | 'graduated',
              tiers: input.seatTiers!.tiers.map(t => ({
                min_seats: t.minSeats,
                max_seats: t.maxSeats ?? null,
                price_per_seat: Number(t.pricePerSeat),
              })),
            }
          : null,
      meterId: amountType === PriceAmountType.METERED_UNIT ? input.meterId! : null,
      unitAmount: amountType === PriceAmountType.METERED_UNIT ? input.unitAmount!.trim() : null,
      capAmount: amountType === PriceAmountType.METERED_UNIT ? (input.capAmount ?? null) : null,
      createdAt: now,
      modifiedAt: null,
    } as ProductPrice);
  }
}

/** A trial needs a recurring product, and its interval and count come together. */
function trialIssues(
  recurring: boolean,
  interval: string | null | undefined,
  count: number | null | undefined,
): ValidationIssue[] {
  if (interval == null && count == null) return [];
  if (!recurring)
    return [
      {
        type: 'value_error',
        loc: ['body', 'trial_interval'],
        msg: 'Trials are only available on recurring products.',
        input: interval ?? null,
      },
    ];
  if (interval == null)
    return [
      {
        type: 'value_error',
        loc: ['body', 'trial_interval'],
        msg: 'trial_interval is required when trial_interval_count is set.',
        input: null,
      },
    ];
  if (count == null)
    return [
      {
        type: 'value_error',
        loc: ['body', 'trial_interval_count'],
        msg: 'trial_interval_count is required when trial_interval is set.',
        input: null,
      },
    ];
  return [];
}
