import { isCountryCode, subdivisionCode } from '../../../kit/countries.js';
import { PolarRequestValidationError, type ValidationIssue } from '../../../kit/errors.js';
import { parseTaxId } from '../../../kit/tax/tax-id.js';
import {
  type OrganizationTaxSettings,
  TAX_SETTINGS_LIMITS as LIMITS,
  type TaxAddress,
  type TaxRegistration,
} from '../../../kit/tax/tax-settings.js';
import type { TaxSettingsInput } from './organization.inputs.js';
import { countryIssue } from './organization.validation.js';

/**
 * An organization's tax settings (beyond Polar; docs/tax-settings.md): checked and merged in one place for
 * create and update, in GraphQL's names (REST bodies arrive camel-cased), with REST's `loc`s so both
 * APIs answer alike. A key left out keeps its value; null clears it.
 */
type Loc = (string | number)[];
const AT: Loc = ['body', 'tax_settings'];

/**
 * The issues of `input` for an organization whose country is `country` (the request's, else the one
 * stored), and of the stored tax id `storedTaxId` when the country changes under it.
 */
export function taxSettingsIssues(
  input: TaxSettingsInput | null | undefined,
  country: string | null,
  stored: { country: string | null; taxId: string | null },
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (input?.legalName != null && input.legalName.trim().length > LIMITS.legalNameMaxLength) {
    issues.push({
      type: 'string_too_long',
      loc: [...AT, 'legal_name'],
      msg: `String should have at most ${LIMITS.legalNameMaxLength} characters`,
      input: input.legalName,
      ctx: { max_length: LIMITS.legalNameMaxLength },
    });
  }
  if (input?.legalAddress != null && !isCountryCode(input.legalAddress.country))
    issues.push(countryIssue([...AT, 'legal_address', 'country'], input.legalAddress.country));
  if (input?.taxId != null) issues.push(...taxIdIssues(input.taxId, country, [...AT, 'tax_id']));
  else if (input?.taxId === undefined && stored.taxId && country !== stored.country) {
    // NOTE: the stored id was valid for the previous country; a seller moving country must change or
    // clear it in the same request, so no organization keeps an id that its country's format refuses.
    for (const issue of taxIdIssues(stored.taxId, country, ['body', 'country']))
      issues.push({ ...issue, msg: `${issue.msg} The stored tax_settings.tax_id does not fit this country.` });
  }
  if (input?.registrations != null) issues.push(...registrationIssues(input.registrations));
  return issues;
}

function taxIdIssues(taxId: string, country: string | null, loc: Loc): ValidationIssue[] {
  if (!country) {
    return [{ type: 'value_error', loc, msg: "Set the organization's country to validate its tax ID.", input: taxId }];
  }
  try {
    parseTaxId(taxId, country, loc);
    return [];
  } catch (error) {
    if (error instanceof PolarRequestValidationError) return error.details as ValidationIssue[];
    throw error;
  }
}

function registrationIssues(registrations: TaxSettingsInput['registrations'] & object): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const at = [...AT, 'registrations'];
  if (registrations.length > LIMITS.registrationsMax) {
    issues.push({
      type: 'too_long',
      loc: at,
      msg: `List should have at most ${LIMITS.registrationsMax} items after validation, not ${registrations.length}`,
      input: registrations.length,
      ctx: { max_length: LIMITS.registrationsMax },
    });
    return issues;
  }
  const seen = new Set<string>();
  registrations.forEach((registration, index) => {
    const loc = [...at, index];
    const { country, state, rateBasisPoints, displayName } = registration;
    if (!isCountryCode(country)) issues.push(countryIssue([...loc, 'country'], country));
    if (state != null && !subdivisionCode(country, state)) {
      issues.push({
        type: 'value_error',
        loc: [...loc, 'state'],
        msg:
          country === 'US' || country === 'CA'
            ? `Invalid ${country} subdivision.`
            : 'A state is only allowed for US and CA registrations.',
        input: state,
      });
    }
    if (!Number.isInteger(rateBasisPoints) || rateBasisPoints < 0 || rateBasisPoints > LIMITS.rateBasisPointsMax) {
      issues.push({
        type: rateBasisPoints < 0 ? 'greater_than_equal' : 'less_than_equal',
        loc: [...loc, 'rate_basis_points'],
        msg:
          rateBasisPoints < 0
            ? 'Input should be greater than or equal to 0'
            : 'Input should be less than or equal to 10000',
        input: rateBasisPoints,
      });
    }
    const name = displayName.trim();
    if (name.length < 1 || name.length > LIMITS.displayNameMaxLength) {
      issues.push({
        type: name.length < 1 ? 'string_too_short' : 'string_too_long',
        loc: [...loc, 'display_name'],
        msg: `String should have ${name.length < 1 ? 'at least 1 character' : `at most ${LIMITS.displayNameMaxLength} characters`}`,
        input: displayName,
      });
    }
    const key = `${country}/${state == null ? '' : (subdivisionCode(country, state) ?? state)}`;
    if (seen.has(key)) {
      issues.push({
        type: 'value_error',
        loc,
        msg: `Duplicate registration for ${country}${state == null ? '' : ` ${state}`}.`,
        input: { country, state: state ?? null },
      });
    }
    seen.add(key);
  });
  return issues;
}

/** The settings after `input` (already checked by `taxSettingsIssues`), for an organization in `country`. */
export function mergeTaxSettings(
  current: OrganizationTaxSettings,
  input: TaxSettingsInput,
  country: string | null,
): OrganizationTaxSettings {
  const next = { ...current };
  if (input.legalName !== undefined) next.legal_name = input.legalName?.trim() || null;
  if (input.legalAddress !== undefined) next.legal_address = input.legalAddress ? addressOf(input.legalAddress) : null;
  if (input.taxId !== undefined) next.tax_id = input.taxId ? parseTaxId(input.taxId, country, [...AT, 'tax_id']) : null;
  if (input.registrations != null) next.registrations = input.registrations.map(registrationOf);
  if (input.stripeTaxEnabled != null) next.stripe_tax_enabled = input.stripeTaxEnabled;
  return next;
}

function addressOf(address: NonNullable<TaxSettingsInput['legalAddress']>): TaxAddress {
  return {
    line1: address.line1 || null,
    line2: address.line2 || null,
    postal_code: address.postalCode || null,
    city: address.city || null,
    state: address.state || null,
    country: address.country,
  };
}

function registrationOf(registration: NonNullable<TaxSettingsInput['registrations']>[number]): TaxRegistration {
  const { country, state } = registration;
  return {
    country,
    state: state == null ? null : subdivisionCode(country, state),
    rate_basis_points: registration.rateBasisPoints,
    display_name: registration.displayName.trim(),
  };
}
