import type { TaxBehavior, TaxBehaviorOption } from './tax.contract.js';

/** Where `location` means prices before tax (Polar's list): the US, Canada and India. */
export const TAX_EXCLUSIVE_COUNTRIES: ReadonlySet<string> = new Set(['US', 'CA', 'IN']);

/**
 * What a price's behaviour option means for one buyer: `location` is exclusive for a buyer in the US,
 * Canada or India and inclusive elsewhere (and when the country is unknown).
 */
export function resolveTaxBehavior(option: TaxBehaviorOption, buyerCountry: string | null): TaxBehavior {
  if (option !== 'location') return option;
  return buyerCountry && TAX_EXCLUSIVE_COUNTRIES.has(buyerCountry.toUpperCase()) ? 'exclusive' : 'inclusive';
}
