import { randomBytes, randomUUID } from 'node:crypto';
import { NotPermitted } from '../../../kit/errors.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { hashToken } from '../../../kit/tokens.js';
import type { OrganizationDirectory, OrganizationProfile } from '../../identity/contract.js';
import type { CustomerSessionService } from '../customer-sessions/customer-session.service.js';
import { queueEmail, sendSoon } from '../emails/email-outbox.js';
import { runWrite } from '../events/run-write.js';
import type { CustomerOwners } from './customer-owners.js';
import type { JobRunner } from '../jobs/job-queue.js';
import { CustomerType } from '../shared/enums.js';
import { CustomerEmailUpdateRepository } from './customer-email-update.repository.js';
import { InvalidCustomerEmailUpdate, emailUpdateIssue } from './customer-email-update.errors.js';
import type { Customer } from './customer.entity.js';
import { customerEvent } from './customer.events.js';
import { CustomerRepository } from './customer.repository.js';
import { flushCustomer } from './customer.service.js';

/** Polar's EMAIL_VERIFICATION_TTL_SECONDS (30 minutes) and its token prefix. */
export const EMAIL_UPDATE_TTL_MS = 30 * 60 * 1000;
export const EMAIL_UPDATE_TOKEN_PREFIX = 'polar_cev_';

/**
 * The customer portal's e-mail change (docs/customer-email-update.md; Polar's customer_email_update):
 * the customer asks for a new address, a token goes to that address through the e-mail outbox, and the
 * change is made when the token comes back (`verify`), with `customer.updated` and a note to the old
 * address. The token is stored only as its HMAC and works once, for 30 minutes.
 */
export class CustomerEmailUpdateService {
  constructor(
    private readonly deps: {
      secret: string;
      publicUrl: string;
      sessions: CustomerSessionService;
      /** The organization's switch (`customer_portal_settings.customer.allow_email_change`) and name. */
      organizations: OrganizationDirectory | null;
      jobs: JobRunner | null;
      owners?: CustomerOwners;
    },
  ) {}

  /**
   * Starts a change for the calling customer (`customer`, already read in its scope). A new request
   * replaces a pending one. Whether the address is taken is decided at `verify`, as Polar does.
   * @throws NotPermitted (the organization turned e-mail changes off), PolarRequestValidationError
   */
  async request(ctx: RequestContext, customer: Customer, email: string): Promise<void> {
    const profile = (await this.deps.organizations?.profile(customer.organizationId)) ?? null;
    if (profile && !profile.customerPortalSettings.customer.allow_email_change)
      throw new NotPermitted('Email changes are not enabled for this organization.');
    if (customer.type === CustomerType.TEAM)
      throw emailUpdateIssue('email', 'Only individual customers can change their email.', email);
    if (customer.email?.toLowerCase() === email.toLowerCase())
      throw emailUpdateIssue('email', 'New email is the same as your current email.', email);

    const token = `${EMAIL_UPDATE_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const now = ctx.clock.now();
    const expiresAt = new Date(now.getTime() + EMAIL_UPDATE_TTL_MS);
    const key = await runWrite(ctx.em, async em => {
      await new CustomerEmailUpdateRepository(em).replace({
        id: randomUUID(),
        customerId: customer.id,
        organizationId: customer.organizationId,
        email,
        tokenHash: hashToken(token, this.deps.secret),
        expiresAt,
        createdAt: now,
      });
      const seller = profile?.name ?? 'your seller';
      const queued = await queueEmail(
        em,
        {
          kind: 'customer_email_update',
          organizationId: customer.organizationId,
          redactAt: expiresAt,
          to: email,
          fromName: profile?.name ?? null,
          subject: 'Verify your new email address',
          text: [
            `You asked to use this address for your ${seller} account. Confirm it here:`,
            '',
            this.verifyUrl(profile, token),
            '',
            `The link expires in ${EMAIL_UPDATE_TTL_MS / 60000} minutes and works once.`,
            "If you didn't ask for it, you can ignore this e-mail: nothing changes.",
          ].join('\n'),
        },
        now,
      );
      return { result: queued };
    });
    sendSoon(this.deps.jobs, key);
  }

  /** Whether `token` names a pending change (nothing is spent). @throws InvalidCustomerEmailUpdate */
  async check(ctx: RequestContext, token: string): Promise<void> {
    const pending = await new CustomerEmailUpdateRepository(ctx.em).findValid(this.hash(token), ctx.clock.now());
    if (!pending) throw new InvalidCustomerEmailUpdate();
  }

  /**
   * Spends the token and makes the change: the address is the customer's and verified, `customer.updated`
   * is recorded, the old address is told, and a new customer session answers (the portal stays signed in).
   * @throws InvalidCustomerEmailUpdate (401), PolarRequestValidationError (the address is another customer's)
   */
  async verify(ctx: RequestContext, token: string): Promise<{ token: string }> {
    const tokenHash = this.hash(token);
    // The organization's name is read before the transaction (distributed, an RPC to identity).
    const found = await new CustomerEmailUpdateRepository(ctx.em).findValid(tokenHash, ctx.clock.now());
    if (!found) throw new InvalidCustomerEmailUpdate();
    const profile = (await this.deps.organizations?.profile(found.organization_id)) ?? null;
    const now = ctx.clock.now();
    const { session, notice } = await runWrite(ctx.em, async em => {
      // One conditional DELETE spends the token: two concurrent verifies cannot both succeed.
      const pending = await new CustomerEmailUpdateRepository(em).spend(tokenHash, now);
      if (!pending) throw new InvalidCustomerEmailUpdate();
      const customer = await new CustomerEmailUpdateRepository(em).lockLiveCustomer(pending.customer_id);
      if (!customer) throw new InvalidCustomerEmailUpdate();
      const other = await new CustomerRepository(em).findByEmail(customer.organizationId, pending.email);
      if (other && other.id !== customer.id)
        throw emailUpdateIssue('token', 'This email address is already in use.', pending.email);
      const oldEmail = customer.email;
      customer.email = pending.email;
      customer.emailVerified = true;
      customer.modifiedAt = now;
      await flushCustomer(em, customer);
      await this.deps.owners?.emailChanged(em, customer, now);
      const notice = oldEmail ? await this.tellOldAddress(em, customer, oldEmail, profile, now) : null;
      return {
        result: { session: await this.deps.sessions.createFor(em, customer, now), notice },
        events: [customerEvent('customer.updated', customer, now)],
      };
    });
    if (notice) sendSoon(this.deps.jobs, notice);
    return session;
  }

  private tellOldAddress(
    em: Parameters<typeof queueEmail>[0],
    customer: Customer,
    oldEmail: string,
    profile: OrganizationProfile | null,
    now: Date,
  ): Promise<string> {
    return queueEmail(
      em,
      {
        kind: 'customer_email_changed',
        organizationId: customer.organizationId,
        to: oldEmail,
        fromName: profile?.name ?? null,
        subject: 'Your email address has been changed',
        text: [
          `The e-mail address of ${profile ? `your ${profile.name} account` : 'your account'} is now ${customer.email}.`,
          '',
          "If you didn't make this change, contact the seller.",
        ].join('\n'),
      },
      now,
    );
  }

  /** The portal page that verifies (rest-adapter/web/portal), by the organization's slug when known. */
  private verifyUrl(profile: OrganizationProfile | null, token: string): string {
    const base = this.deps.publicUrl.replace(/\/+$/, '');
    const portal = profile ? `${base}/portal/${encodeURIComponent(profile.slug)}` : `${base}/portal`;
    return `${portal}/verify-email?token=${encodeURIComponent(token)}`;
  }

  private hash(token: string): string {
    return hashToken(token.trim(), this.deps.secret);
  }
}
