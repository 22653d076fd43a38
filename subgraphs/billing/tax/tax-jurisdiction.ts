import { isEuMemberState } from '../../../kit/tax/eu-member-states.js';
import { specialTerritoryOf } from './eu-special-territories.js';
import { euStandardRate } from './eu-vat-rates.js';
import type { BuyerTaxProfile, SellerTaxProfile, TaxabilityReason, TaxRegistration } from './tax.contract.js';
import { TaxAddressRequired } from './tax.errors.js';

/** Where a sale is taxed and at what rate: one decision for every line of a request. */
export interface TaxDecision {
  /** Null: no tax is due (the reason says why). */
  basisPoints: number | null;
  reason: TaxabilityReason;
  country: string | null;
  state: string | null;
  displayName: string;
}

/** Member states with territories outside EU VAT: a buyer there needs a postal code to be placed. */
const COUNTRIES_WITH_SPECIAL_TERRITORIES = new Set(['DE', 'ES', 'FI', 'FR', 'GR', 'IT']);

/** `25.5` from 2550 basis points: the rate in percent, as a display name says it. */
export function percentOf(basisPoints: number): number {
  return basisPoints / 100;
}

/** `0.255` from 2550 basis points: the rate as Polar's breakdown shows it (Stripe's percentage ÷ 100). */
export function fractionOf(basisPoints: number): number {
  return basisPoints / 10_000;
}

/**
 * The rules of docs/tax.md#the-rules, for the built-in calculator. Throws TaxAddressRequired when the
 * seller collects somewhere and the buyer's address does not say where the buyer is.
 */
export function decideTax(seller: SellerTaxProfile, buyer: BuyerTaxProfile, at: Date): TaxDecision {
  const sellerCountry = seller.country?.toUpperCase() ?? null;
  if (!sellerCountry) return none('not_collecting', null, 'Tax');
  const sellerInEu = isEuMemberState(sellerCountry);
  if (!sellerInEu && seller.registrations.length === 0) return none('not_collecting', null, 'Tax');
  const address = buyer.address;
  if (!address?.country) throw new TaxAddressRequired('address');
  const buyerCountry = address.country.toUpperCase();
  const buyerState = stateOf(address.state, buyerCountry);
  if (sellerInEu) return decideForEuSeller(seller, buyer, buyerCountry, buyerState, at);
  const registration = registrationFor(seller.registrations, buyerCountry, buyerState);
  return registration ? registered(registration) : none('not_collecting', buyerCountry, 'Tax');
}

function decideForEuSeller(
  seller: SellerTaxProfile,
  buyer: BuyerTaxProfile,
  buyerCountry: string,
  buyerState: string | null,
  at: Date,
): TaxDecision {
  const postalCode = buyer.address?.postal_code?.trim() || null;
  if (isEuMemberState(buyerCountry) && !postalCode && COUNTRIES_WITH_SPECIAL_TERRITORIES.has(buyerCountry))
    throw new TaxAddressRequired('postal_code');
  if (specialTerritoryOf(buyerCountry, postalCode)) return none('not_subject_to_tax', buyerCountry, 'VAT');
  if (buyerCountry === seller.country!.toUpperCase()) return vat(buyerCountry, at);
  if (isEuMemberState(buyerCountry)) return isBusiness(buyer) ? reverseCharge(buyerCountry) : vat(buyerCountry, at);
  const registration = registrationFor(seller.registrations, buyerCountry, buyerState);
  return registration ? registered(registration) : none('not_subject_to_tax', buyerCountry, 'VAT');
}

/**
 * A buyer with an EU VAT id whose check is `valid` or `inconclusive` buys as a business.
 *
 * NOTE: inconclusive counts. The id already passed the offline format and checksum validation, Polar
 * and Stripe apply reverse charge on such an id without asking VIES, and an unavailable VIES is
 * "inconclusive, not invalid"; the check is kept on the order as evidence so the merchant can check
 * it again. An `invalid` id is refused by the checkout before it gets here; if one does, the buyer is
 * a consumer.
 */
function isBusiness(buyer: BuyerTaxProfile): boolean {
  if (buyer.taxId?.[1] !== 'eu_vat') return false;
  const result = buyer.vatIdCheck?.result;
  return result === 'valid' || result === 'inconclusive';
}

/**
 * The most specific registration where the buyer is: the buyer's state first, then the whole country.
 * A seller registered in some states of the buyer's country needs the buyer's state.
 */
function registrationFor(
  registrations: readonly TaxRegistration[],
  country: string,
  state: string | null,
): TaxRegistration | null {
  const inCountry = registrations.filter(r => r.country.toUpperCase() === country);
  if (!state && inCountry.some(r => r.state)) throw new TaxAddressRequired('state');
  const inState = state ? inCountry.find(r => r.state && stateOf(r.state, country) === state) : undefined;
  return inState ?? inCountry.find(r => !r.state) ?? null;
}

/** `US-CA` or `ca` → `CA`: a subdivision without its country prefix. */
function stateOf(state: string | null | undefined, country: string): string | null {
  const upper = state?.trim().toUpperCase();
  if (!upper) return null;
  return upper.startsWith(`${country}-`) ? upper.slice(country.length + 1) : upper;
}

function vat(country: string, at: Date): TaxDecision {
  const basisPoints = euStandardRate(country, at)!.basisPoints;
  return {
    basisPoints,
    reason: 'standard_rated',
    country,
    state: null,
    displayName: `VAT ${percentOf(basisPoints)} %`,
  };
}

function reverseCharge(country: string): TaxDecision {
  return { basisPoints: 0, reason: 'reverse_charge', country, state: null, displayName: 'VAT reverse charge' };
}

function registered(registration: TaxRegistration): TaxDecision {
  return {
    basisPoints: registration.rate_basis_points,
    reason: 'standard_rated',
    country: registration.country.toUpperCase(),
    state: registration.state ? stateOf(registration.state, registration.country.toUpperCase()) : null,
    displayName: registration.display_name,
  };
}

function none(reason: TaxabilityReason, country: string | null, displayName: string): TaxDecision {
  return { basisPoints: null, reason, country, state: null, displayName };
}
