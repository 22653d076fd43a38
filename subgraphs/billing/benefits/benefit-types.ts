/** Polar's eight benefit types (docs/polar/resources.md#benefit). */
export const BENEFIT_TYPES = [
  'custom',
  'discord',
  'github_repository',
  'downloadables',
  'license_keys',
  'meter_credit',
  'feature_flag',
  'slack_shared_channel',
] as const;
export type BenefitKind = (typeof BENEFIT_TYPES)[number];
