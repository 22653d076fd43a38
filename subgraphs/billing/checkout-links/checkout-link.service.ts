import { randomBytes } from 'node:crypto';
import { PolarRequestValidationError, ResourceNotFound, type ValidationIssue } from '../../../kit/errors.js';
import { pageWindow, paginationOf, type Pagination, type PageRequest } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import type { CheckoutService } from '../checkouts/checkout.service.js';
import type { CheckoutType } from '../checkouts/checkout.type.js';
import type { CheckoutCreateInput } from '../checkouts/checkout.inputs.js';
import type { Product } from '../products/product.entity.js';
import { ProductRepository } from '../products/product.repository.js';
import { organizationNow } from '../time/organization-clocks.js';
import { ProductVisibility } from '../shared/enums.js';
import { throwIfAny } from '../shared/issues.js';
import { metadataIssues } from '../shared/metadata.js';
import { sortCriteria } from '../shared/sorting.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { tenantScope } from '../../../kit/database/tenant-scope.js';
import { loadForWrite } from '../../../kit/database/write/load-for-write.js';
import type { Principal } from '../../../kit/principal.js';
import { runWrite } from '../events/run-write.js';
import { CheckoutLink } from './checkout-link.entity.js';
import type {
  CheckoutLinkCreateInput,
  CheckoutLinkOpenInput,
  CheckoutLinkUpdateInput,
} from './checkout-link.inputs.js';
import { checkoutLinkRead, type CheckoutLinkReadFilters } from './checkout-link.read.js';
import { CHECKOUT_LINK_DEFAULT_SORTING, CHECKOUT_LINK_SORT_KEYS } from './checkout-link.sorting.js';
import { CheckoutLinkType } from './checkout-link.type.js';
import { CheckoutLinkRepository } from './checkout-link.repository.js';

export interface CheckoutLinkListQuery extends PageRequest {
  organizationId?: string[] | null;
  productId?: string[] | null;
  sorting?: string[] | null;
}

const issue = (loc: (string | number)[], msg: string, input: unknown): ValidationIssue => ({
  type: 'value_error',
  loc: ['body', ...loc],
  msg,
  input,
});

/**
 * Checkout links (Polar's `/v1/checkout-links/`): CRUD for the merchant, and `open` for anyone
 * holding the client secret, which creates a fresh checkout through `CheckoutService.open` (so a
 * link's checkout is priced, evented and confirmed like any other). Polar sends no webhook events
 * for links themselves.
 */
export class CheckoutLinkService {
  constructor(private readonly deps: { publicUrl: string; checkouts: CheckoutService }) {}

  async list(
    ctx: RequestContext,
    query: CheckoutLinkListQuery,
  ): Promise<{ items: CheckoutLinkType[]; pagination: Pagination }> {
    const filters: CheckoutLinkReadFilters = query.productId?.length ? { productId: query.productId } : {};
    const { rows, total } = await checkoutLinkRead.page(
      ctx.em,
      ctx.principal,
      filters,
      sortCriteria(query.sorting ?? [], CHECKOUT_LINK_SORT_KEYS, CHECKOUT_LINK_DEFAULT_SORTING),
      pageWindow(query),
      { organizationIds: query.organizationId?.length ? query.organizationId : null },
    );
    return {
      items: rows.map(r => CheckoutLinkType.fromRow(r, this.deps.publicUrl)),
      pagination: paginationOf(total, query.limit),
    };
  }

  async get(ctx: RequestContext, id: string): Promise<CheckoutLinkType> {
    const row = await checkoutLinkRead.byId(ctx.em, ctx.principal, id);
    if (!row) throw new ResourceNotFound();
    return CheckoutLinkType.fromRow(row, this.deps.publicUrl);
  }

  async create(ctx: RequestContext, input: CheckoutLinkCreateInput): Promise<CheckoutLinkType> {
    throwIfAny(input.metadata == null ? [] : metadataIssues(input.metadata));
    const products = await this.checkProducts(ctx.em, ctx.principal, input.products ?? []);
    const organizationId = products[0]!.organizationId;
    const discountId = input.discountId ? await this.checkDiscount(ctx.em, organizationId, input.discountId) : null;
    const now = await organizationNow(ctx, organizationId);
    // Polar records no event for links: the frame only commits the row.
    const link = await runWrite(ctx.em, async em => ({
      result: em.create(CheckoutLink, {
        organizationId,
        clientSecret: `polar_cl_${randomBytes(24).toString('base64url')}`,
        productIds: products.map(p => p.id),
        discountId,
        allowDiscountCodes: input.allowDiscountCodes ?? true,
        requireBillingAddress: input.requireBillingAddress ?? false,
        label: input.label ?? null,
        successUrl: input.successUrl ?? null,
        returnUrl: input.returnUrl ?? null,
        trialInterval: input.trialInterval ?? null,
        trialIntervalCount: input.trialIntervalCount ?? null,
        metadata: (input.metadata ?? {}) as CheckoutLink['metadata'],
        createdAt: now,
        modifiedAt: null,
        deletedAt: null,
      } as CheckoutLink),
    }));
    return this.readIn(ctx, link);
  }

  /** One locking load in the read path's scope: concurrent updates of a link take turns. */
  async update(ctx: RequestContext, id: string, input: CheckoutLinkUpdateInput): Promise<CheckoutLinkType> {
    const updated = await runWrite(ctx.em, async em => {
      const link = await loadLiveLink(ctx, em, id);
      await this.applyUpdate(ctx, em, link, input);
      return { result: link };
    });
    return this.readIn(ctx, updated);
  }

  /** Soft delete: the link stops opening checkouts and leaves the lists. */
  async delete(ctx: RequestContext, id: string): Promise<void> {
    await runWrite(ctx.em, async em => {
      const link = await loadLiveLink(ctx, em, id);
      link.deletedAt = await organizationNow(ctx, link.organizationId);
      return { result: undefined };
    });
  }

  private async applyUpdate(
    ctx: RequestContext,
    em: EntityManager,
    link: CheckoutLink,
    input: CheckoutLinkUpdateInput,
  ): Promise<void> {
    throwIfAny(input.metadata == null ? [] : metadataIssues(input.metadata));
    if (input.products != null) {
      const products = await this.checkProducts(em, ctx.principal, input.products);
      if (products[0]!.organizationId !== link.organizationId)
        throw new PolarRequestValidationError([
          issue(['products'], "Products don't belong to the checkout link's organization.", input.products),
        ]);
      link.productIds = products.map(p => p.id);
      // Polar drops the trial when no product of the link recurs any more.
      if (!products.some(p => p.recurringInterval)) {
        link.trialInterval = null;
        link.trialIntervalCount = null;
      }
    }
    if (input.discountId !== undefined)
      link.discountId = input.discountId ? await this.checkDiscount(em, link.organizationId, input.discountId) : null;
    if (input.label !== undefined) link.label = input.label;
    if (input.allowDiscountCodes != null) link.allowDiscountCodes = input.allowDiscountCodes;
    if (input.requireBillingAddress != null) link.requireBillingAddress = input.requireBillingAddress;
    if (input.successUrl !== undefined) link.successUrl = input.successUrl;
    if (input.returnUrl !== undefined) link.returnUrl = input.returnUrl;
    if (input.trialInterval !== undefined) link.trialInterval = input.trialInterval;
    if (input.trialIntervalCount !== undefined) link.trialIntervalCount = input.trialIntervalCount;
    if (input.metadata != null) link.metadata = input.metadata as CheckoutLink['metadata'];
    link.modifiedAt = await organizationNow(ctx, link.organizationId);
  }

  /**
   * Follows a link: a new open checkout of its live products with its settings, prefilled from the
   * link's URL (Polar's query parameters). A link whose products are all gone answers 404.
   */
  async open(ctx: RequestContext, clientSecret: string, prefill: CheckoutLinkOpenInput): Promise<CheckoutType> {
    const link = await new CheckoutLinkRepository(ctx.em.fork()).findLiveByClientSecret(clientSecret);
    if (!link) throw new ResourceNotFound();
    const found = await new ProductRepository(ctx.em).findInOrganization(link.organizationId, link.productIds);
    const live = link.productIds
      .map(id => found.find(p => p.id === id))
      .filter((p): p is Product => !!p && !p.isArchived);
    if (!live.length) throw new ResourceNotFound();
    const productId = prefill.productId && live.some(p => p.id === prefill.productId) ? prefill.productId : null;
    const input = {
      products: live.map(p => p.id),
      productId,
      amount: prefill.amount ?? null,
      discountId: link.discountId,
      allowDiscountCodes: link.allowDiscountCodes,
      requireBillingAddress: link.requireBillingAddress,
      trialInterval: link.trialInterval,
      trialIntervalCount: link.trialIntervalCount,
      successUrl: link.successUrl,
      returnUrl: link.returnUrl,
      customerEmail: prefill.customerEmail ?? null,
      customerName: prefill.customerName ?? null,
      locale: prefill.locale ?? null,
      metadata: { ...link.metadata, ...(prefill.metadata ?? {}) },
    } as CheckoutCreateInput;
    const checkout = await this.deps.checkouts.open(ctx, live, input, { strict: false });
    if (!prefill.discountCode || !link.allowDiscountCodes) return checkout;
    // A code from the URL that does not apply is ignored, as Polar's prefill is.
    return this.deps.checkouts
      .clientUpdate(ctx, checkout.clientSecret, { discountCode: prefill.discountCode })
      .catch(error => {
        if (error instanceof PolarRequestValidationError) return checkout;
        throw error;
      });
  }

  private async readIn(ctx: RequestContext, link: CheckoutLink): Promise<CheckoutLinkType> {
    const [row] = await checkoutLinkRead.byIdsIn(ctx.em, { organizationIds: [link.organizationId], customerId: null }, [
      link.id,
    ]);
    if (!row) throw new ResourceNotFound();
    return CheckoutLinkType.fromRow(row, this.deps.publicUrl);
  }

  /** Polar's `_get_validated_products`: each readable, live and not a draft; all of one organization. */
  private async checkProducts(em: EntityManager, principal: Principal, ids: string[]): Promise<Product[]> {
    if (!ids.length)
      throw new PolarRequestValidationError([
        {
          type: 'too_short',
          loc: ['body', 'products'],
          msg: 'List should have at least 1 item after validation, not 0',
          input: ids,
        },
      ]);
    const found = await new ProductRepository(em).findReadableMany(principal, ids);
    const issues: ValidationIssue[] = [];
    const products: Product[] = [];
    ids.forEach((id, index) => {
      const product = found.find(p => p.id === id);
      if (!product) issues.push(issue(['products', index], 'Product does not exist.', id));
      else if (product.isArchived) issues.push(issue(['products', index], 'Product is archived.', id));
      else if (product.visibility === ProductVisibility.DRAFT)
        issues.push(issue(['products', index], 'Product is a draft.', id));
      else products.push(product);
    });
    if (new Set(products.map(p => p.organizationId)).size > 1)
      issues.push(issue(['products'], 'Products must all belong to the same organization.', ids));
    throwIfAny(issues);
    return products;
  }

  private async checkDiscount(em: EntityManager, organizationId: string, id: string): Promise<string> {
    const discount = await new CheckoutLinkRepository(em).findLiveDiscount(id, organizationId);
    if (!discount) throw new PolarRequestValidationError([issue(['discount_id'], 'Discount does not exist.', id)]);
    return discount.id;
  }
}

/** A live link the caller may change, locked (404 when deleted, missing or out of the read path's scope). */
function loadLiveLink(ctx: RequestContext, em: EntityManager, id: string): Promise<CheckoutLink> {
  return loadForWrite(em, CheckoutLink, id, tenantScope(ctx.principal, checkoutLinkRead.definition.readers), {
    where: { deletedAt: null },
  });
}
