import type { EntityManager } from '@mikro-orm/postgresql';
import type { OrganizationDirectory } from '../../identity/contract.js';
import { DomainError } from '../../../kit/errors.js';
import { CheckoutRepository } from './checkout.repository.js';

/** 403: the organization prevents trial abuse and this customer already had a trial (Polar's TrialAlreadyRedeemed). */
export class TrialAlreadyRedeemed extends DomainError {
  constructor() {
    super(
      'TrialAlreadyRedeemed',
      'You have already used a trial for this product. Trials can only be used once per customer.',
      403,
    );
  }
}

/**
 * The address a person is known by, whatever alias they type: lower case, without a `+tag` in the
 * local part (`Ada+trial2@Example.com` is `ada@example.com`), as Polar unaliases before comparing.
 */
export function unaliasedEmail(email: string): string {
  const [local, domain] = email.trim().toLowerCase().split('@');
  return domain === undefined ? local : `${local.split('+')[0]}@${domain}`;
}

/**
 * With the organization's `prevent_trial_abuse` on, a trial is refused to a customer whose e-mail
 * (unaliased) already started one of the organization's subscriptions on a trial (any product, any
 * customer record: a second customer with the same address is the same person). Polar also matches
 * the card's fingerprint; the test processor has none, so the e-mail is the hint here.
 */
export async function assertTrialAvailable(
  em: EntityManager,
  organizations: OrganizationDirectory | null,
  organizationId: string,
  email: string | null,
): Promise<void> {
  if (!email || !organizations) return;
  const profile = await organizations.profile(organizationId);
  if (!profile?.billing.preventTrialAbuse) return;
  if ((await new CheckoutRepository(em).trialsStartedBy(organizationId, unaliasedEmail(email))) > 0)
    throw new TrialAlreadyRedeemed();
}
