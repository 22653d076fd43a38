import { NotPermitted } from '../errors.js';
import type { Principal } from '../principal.js';

/**
 * What a customer session (`customer` principal, billing's `polar_cst_`) may read over GraphQL: no
 * more than the REST Customer Portal shows of the same object. A type a customer can reach (its
 * subscriptions, their products, its organization by entity reference) is handed out through
 * `customerView`, which keeps the fields the portal shows and makes every other one answer
 * 403 NotPermitted; field resolvers the portal never selects call `refuseCustomer`.
 * Any other principal gets the object unchanged (no cost on the merchant's paths).
 */
export function customerView<T extends object>(
  principal: Principal,
  type: abstract new () => T,
  value: T,
  rule: { visible: ReadonlySet<string> } | { hidden: readonly string[] },
): T {
  // Anonymous callers reach such objects only by reference from a public checkout: the same view.
  if (principal.subject !== 'customer' && principal.subject !== 'anonymous') return value;
  return restrictedView(type, value, rule);
}

/**
 * `value` with only the fields `rule` keeps readable, whoever asks: for an object a caller reaches
 * without any right to it (another organization's public profile, embedded in a checkout opened by its
 * client secret), where being signed in must not show more than an anonymous caller sees.
 */
export function restrictedView<T extends object>(
  type: abstract new () => T,
  value: T,
  rule: { visible: ReadonlySet<string> } | { hidden: readonly string[] },
  refusal: () => NotPermitted = notForCustomers,
): T {
  // An instance of the GraphQL type's class: type-graphql hands such a root to field resolvers as it
  // is, where it would copy a plain object's properties into a new instance (and trip every getter).
  const view = Object.assign(Object.create(type.prototype) as object, value) as Record<string, unknown>;
  const hidden = 'hidden' in rule ? rule.hidden : Object.keys(view).filter(key => !rule.visible.has(key));
  for (const field of hidden) {
    Object.defineProperty(view, field, {
      enumerable: true,
      get: () => {
        throw refusal();
      },
    });
  }
  return view as T;
}

/** For field resolvers of data the Customer Portal does not show (the customer record, discounts, lists). */
export function refuseCustomer(principal: Principal): void {
  if (principal.subject === 'customer') throw notForCustomers();
}

function notForCustomers(): NotPermitted {
  return new NotPermitted('Not available to a customer session.');
}
