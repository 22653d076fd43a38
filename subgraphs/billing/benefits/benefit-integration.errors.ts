/** What a benefit integration throws (benefit-integrations.ts says what each does to a grant). */

export class IntegrationNotConfigured extends Error {
  readonly type = 'IntegrationNotConfigured';
  constructor(readonly integration: string) {
    super(
      `The ${integration} integration is not configured on this server: the benefit was recorded but nothing was granted there.`,
    );
  }
}

/** Polar's `BenefitActionRequiredError`: nothing will change until someone acts. */
export class BenefitActionRequired extends Error {
  readonly type = 'BenefitActionRequiredError';
  /** Properties to keep on the grant anyway (e.g. the Slack channel created before the invite failed). */
  constructor(
    message: string,
    public grantProperties: Record<string, unknown> | null = null,
  ) {
    super(message);
  }
}

/** Polar's `BenefitRetriableError`: the vendor did not answer usefully; the job runs again later. */
export class VendorUnavailable extends Error {
  readonly type = 'BenefitRetriableError';
  readonly retriable = true;
  /** Properties to keep on the grant meanwhile (what was already created at the vendor). */
  grantProperties: Record<string, unknown> | null = null;
}

export function isRetriable(error: unknown): boolean {
  return (error as { retriable?: boolean } | null)?.retriable === true;
}
