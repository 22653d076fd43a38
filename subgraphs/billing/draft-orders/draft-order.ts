import type { EntityManager } from '@mikro-orm/postgresql';
import { PolarRequestValidationError } from '../../../kit/errors.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { targetOrganization } from '../../../kit/target-organization.js';
import type { OrganizationDirectory } from '../../identity/contract.js';
import type { Customer } from '../customers/customer.entity.js';
import { CustomerRepository } from '../customers/customer.repository.js';
import { checkCustomFieldData } from '../custom-fields/custom-field-data.js';
import { attachedFieldsOf } from '../custom-fields/product-custom-fields.js';
import { runWrite } from '../events/run-write.js';
import type { ProductPrice } from '../products/product-price.entity.js';
import { ProductRepository } from '../products/product.repository.js';
import { PriceAmountType } from '../shared/enums.js';
import type { TaxBehaviorOption } from '../tax/tax.contract.js';
import { organizationNow } from '../time/organization-clocks.js';
import { createOrder } from '../orders/create-order.js';
import { readOrderBack } from '../orders/order.events.js';
import { OffSessionChargesNotEnabled } from './draft-order.errors.js';
import type { OrderType } from '../orders/order.type.js';
import { type OrderTax, type SaleTax, untaxed } from '../orders/sale-tax.js';

/** The smallest positive amount a draft order may charge, in minor units (docs/selling.md#draft-orders). */
export const MINIMUM_CHARGE_AMOUNT = 50;
/** The largest, in minor units (99,999,999: what a card charge can carry). */
export const MAXIMUM_CHARGE_AMOUNT = 99_999_999;

export interface DraftOrderInput {
  organizationId?: string | null;
  customerId: string;
  productId: string;
  currency?: string | null;
  amount?: number | null;
  units?: number | null;
  description?: string | null;
  metadata?: Record<string, string | number | boolean>;
  customFieldData?: Record<string, unknown>;
}

export interface DraftOrderDeps {
  /** Identity's directory: the organization's switches and default currency (absent in unit tests: all on). */
  organizations: OrganizationDirectory | null;
  tax: SaleTax | null;
}

/**
 * `POST /v1/orders` (docs/selling.md#draft-orders): a merchant's draft order of a one-time product for one of
 * its customers, to be charged off-session by its finalize. Written as `draft`, without an invoice
 * number, its tax computed now and kept (finalize never recomputes it), with `order.created` in the same
 * transaction. Everything wrong with the request is a 422 at its field, as Polar's, and writes nothing.
 */
export async function createDraftOrder(
  ctx: RequestContext,
  deps: DraftOrderDeps,
  input: DraftOrderInput,
): Promise<OrderType> {
  const organizationId = await targetOrganization(ctx.principal, input.organizationId);
  const profile = await requireOffSessionCharges(deps.organizations, organizationId);
  const now = await organizationNow(ctx, organizationId);
  return runWrite(ctx.em, async em => {
    const product = await chargeableProduct(em, organizationId, input);
    const customer = await new CustomerRepository(em).findLiveInOrganization(organizationId, input.customerId);
    if (!customer) throw invalid('customer_id', 'Customer does not exist.', input.customerId);
    const currency = input.currency?.toLowerCase() ?? profile?.defaultPresentmentCurrency ?? 'usd';
    const prices = product.prices.filter(p => p.priceCurrency === currency);
    if (!prices.length)
      throw invalid(
        'currency',
        input.currency != null
          ? `Product has no price in currency '${currency}'.`
          : `Product is not priced in the organization's default currency ('${currency}'); specify a currency to charge in.`,
        input.currency ?? null,
      );
    checkAmount(input.amount);
    const answers = checkCustomFieldData(await attachedFieldsOf(em, product.id), input.customFieldData ?? {}, {
      required: false,
    });
    if (answers.issues.length) throw new PolarRequestValidationError(answers.issues);
    const items = prices.map(price => ({
      label: input.description?.trim() || product.name,
      amount: BigInt(input.amount ?? Number(price.priceAmount ?? 0n)),
      productPriceId: price.id,
    }));
    const tax = await draftTax(deps.tax, organizationId, customer, currency, items, prices, now, input.customerId);
    const order = await createOrder(
      em,
      {
        organizationId,
        customerId: customer.id,
        productId: product.id,
        productPriceId: prices[0].id,
        subscriptionId: null,
        checkoutId: null,
        discountId: null,
        billingReason: 'purchase',
        currency,
        items,
        discountAmount: 0n,
        billingName: customer.billingName,
        billingAddress: customer.billingAddress,
        seats: null,
        metadata: input.metadata ?? {},
        customFieldData: answers.data,
        tax,
        draft: true,
      },
      now,
      false,
    );
    // `order.created` is recorded by createOrder; the answer is the order as the API reads it.
    return { result: (await readOrderBack(em, order)).order, events: [] };
  });
}

/** The organization's profile, refusing (403) when `off_session_charges_enabled` is off. */
export async function requireOffSessionCharges(organizations: OrganizationDirectory | null, organizationId: string) {
  if (!organizations) return null;
  const profile = await organizations.profile(organizationId);
  if (!profile?.features.offSessionChargesEnabled) throw new OffSessionChargesNotEnabled(organizationId);
  return profile;
}

/** The organization's live one-time product with its catalogue prices, if a draft order can charge it (else 422). */
async function chargeableProduct(
  em: EntityManager,
  organizationId: string,
  input: DraftOrderInput,
): Promise<{ id: string; name: string; prices: ProductPrice[] }> {
  const products = new ProductRepository(em);
  const [product] = await products.findInOrganization(organizationId, [input.productId]);
  if (!product) throw invalid('product_id', 'Product does not exist.', input.productId);
  if (product.recurringInterval)
    throw invalid(
      'product_id',
      'Subscription products are not supported by the off-session charge API. Use a one-time product.',
      input.productId,
    );
  const prices = ((await products.pricesOf([product.id])).get(product.id) ?? []).filter(p => p.source === 'catalog');
  if (prices.some(p => p.amountType === PriceAmountType.SEAT_BASED))
    throw invalid(
      'product_id',
      'Seat-based products are not supported by the off-session charge API.',
      input.productId,
    );
  // No price here is unit-based: units name nothing to count.
  if (input.units != null)
    throw invalid('units', 'Unit-based products are not supported by the off-session charge API.', input.units);
  if (!prices.length) throw invalid('product_id', 'Product has no chargeable static prices.', input.productId);
  if (prices.some(p => p.amountType === PriceAmountType.CUSTOM))
    throw invalid('product_id', 'Off-session charges only support fixed-price products.', input.productId);
  return { id: product.id, name: product.name, prices };
}

/** A positive custom amount must be chargeable (0 is a free order): Polar's bound items at `amount`. */
function checkAmount(amount: number | null | undefined): void {
  if (amount == null || amount === 0) return;
  const below = amount < MINIMUM_CHARGE_AMOUNT;
  if (!below && amount <= MAXIMUM_CHARGE_AMOUNT) return;
  const [type, bound, word, key] = below
    ? (['greater_than_equal', MINIMUM_CHARGE_AMOUNT, 'least', 'ge'] as const)
    : (['less_than_equal', MAXIMUM_CHARGE_AMOUNT, 'most', 'le'] as const);
  throw new PolarRequestValidationError([
    { type, loc: ['body', 'amount'], msg: `Amount must be at ${word} ${bound}.`, input: amount, ctx: { [key]: bound } },
  ]);
}

/**
 * The draft's tax with what the customer has on file (docs/tax.md): kept on the order and never computed
 * again at finalize, so a seller that collects tax and a customer whose address it cannot tax is a 422
 * now rather than a charge without tax.
 */
async function draftTax(
  tax: SaleTax | null,
  organizationId: string,
  customer: Customer,
  currency: string,
  items: { amount: bigint }[],
  prices: ProductPrice[],
  at: Date,
  customerId: string,
): Promise<OrderTax> {
  if (!tax) return untaxed(items.length);
  const seller = await tax.seller(organizationId);
  let untaxable: string | null = null;
  const computed = await tax.orderTax(
    seller,
    { address: customer.billingAddress, taxId: customer.taxId },
    currency,
    items.map((item, i) => ({
      amount: item.amount,
      taxBehavior: (prices[i].taxBehavior as TaxBehaviorOption | null) ?? seller.defaultTaxBehavior,
    })),
    at,
    issue => {
      untaxable = issue;
    },
  );
  if (untaxable !== null)
    throw invalid(
      'customer_id',
      'Tax could not be calculated for this order. The customer needs a complete, valid billing address before an off-session charge can be created.',
      customerId,
    );
  return computed;
}

function invalid(field: string, msg: string, input: unknown): PolarRequestValidationError {
  return new PolarRequestValidationError([{ type: 'value_error', loc: ['body', field], msg, input }]);
}
