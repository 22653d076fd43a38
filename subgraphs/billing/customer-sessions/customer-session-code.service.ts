import { randomInt, randomUUID } from 'node:crypto';
import type { RequestContext } from '../../../kit/request-context.js';
import { hashToken } from '../../../kit/tokens.js';
import type { OrganizationDirectory } from '../../identity/contract.js';
import { CustomerRepository } from '../customers/customer.repository.js';
import { EMAIL_LINK_PREFIX } from '../customer-emails/email-link.js';
import { runWrite } from '../events/run-write.js';
import { queueEmail, sendSoon } from '../emails/email-outbox.js';
import type { JobRunner } from '../jobs/job-queue.js';
import { CustomerSessionCodeInvalidOrExpired } from './customer-session-code.errors.js';
import type { CustomerSessionService } from './customer-session.service.js';
import { CustomerSessionRepository } from './customer-session.repository.js';

/** Polar's CUSTOMER_SESSION_CODE_TTL and CUSTOMER_SESSION_CODE_LENGTH. */
export const CUSTOMER_SESSION_CODE_TTL_MS = 30 * 60 * 1000;
export const CUSTOMER_SESSION_CODE_LENGTH = 6;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * The customer portal's sign-in by e-mail (Polar's customer_portal/service/customer_session.py): a
 * customer of the organization asks for a code, receives it through the e-mail outbox, and trades it for
 * a customer session. The code is stored only as its HMAC (`billing.customer_session_codes`), lives 30
 * minutes and is spent by the first authenticate (one conditional DELETE, so two concurrent uses cannot
 * both succeed). `request` answers the same whether or not the customer exists.
 */
export class CustomerSessionCodeService {
  constructor(
    private readonly deps: {
      secret: string;
      publicUrl: string;
      sessions: CustomerSessionService;
      /** Names the seller in the e-mail and gives the portal's address; without it the e-mail is generic. */
      organizations: OrganizationDirectory | null;
      jobs: JobRunner | null;
    },
  ) {}

  async request(ctx: RequestContext, email: string, organizationId: string): Promise<void> {
    const organization = (await this.deps.organizations?.profile(organizationId)) ?? null;
    if (this.deps.organizations && !organization) return;
    const customer = await new CustomerRepository(ctx.em).findByEmail(organizationId, email);
    if (!customer) return;
    const code = generateCode();
    const now = ctx.clock.now();
    const expiresAt = new Date(now.getTime() + CUSTOMER_SESSION_CODE_TTL_MS);
    const purchases = organization ? `your ${organization.name} purchases` : 'your purchases';
    const base = this.deps.publicUrl.replace(/\/+$/, '');
    const url = organization
      ? `${base}/portal/${encodeURIComponent(organization.slug)}/authenticate`
      : `${base}/portal`;
    // The code and its e-mail are written together (the write frame; a code records no event).
    const key = await runWrite(ctx.em, async em => {
      await new CustomerSessionRepository(em).insertCode({
        id: randomUUID(),
        customerId: customer.id,
        organizationId: customer.organizationId,
        email,
        codeHash: hashToken(code, this.deps.secret),
        expiresAt,
        createdAt: now,
      });
      const queued = await queueEmail(
        em,
        {
          kind: 'customer_session_code',
          organizationId: customer.organizationId,
          redactAt: expiresAt,
          to: email,
          subject: `Access ${purchases}`,
          text: [
            `Here is your code to access ${purchases}:`,
            '',
            code,
            '',
            `Enter it at ${url}. It expires in ${CUSTOMER_SESSION_CODE_TTL_MS / 60000} minutes and works once.`,
            "If you didn't ask for it, you can ignore this e-mail.",
          ].join('\n'),
        },
        now,
      );
      return { result: queued };
    });
    sendSoon(this.deps.jobs, key);
  }

  /** Spends the code and opens a customer session (a `polar_cst_` token, one hour). */
  async authenticate(ctx: RequestContext, rawCode: string): Promise<{ token: string }> {
    // A customer e-mail's link carries a one-time token of its own (customer-emails/customer-email-queue.ts),
    // kept and spent like a code; its letter case matters.
    const trimmed = rawCode.trim();
    const link = trimmed.startsWith(EMAIL_LINK_PREFIX);
    const code = link ? trimmed : trimmed.toUpperCase();
    if (!link && code.length !== CUSTOMER_SESSION_CODE_LENGTH) throw new CustomerSessionCodeInvalidOrExpired();
    const now = ctx.clock.now();
    // One conditional DELETE spends the code; the session opens in the same transaction (the write frame).
    return runWrite(ctx.em, async em => {
      const sessions = new CustomerSessionRepository(em);
      const spent = await sessions.spendCode(hashToken(code, this.deps.secret), now);
      if (!spent) throw new CustomerSessionCodeInvalidOrExpired();
      const customer = await sessions.findLiveCustomer(spent.customer_id);
      if (!customer) throw new CustomerSessionCodeInvalidOrExpired();
      // The code reached this address: it is the customer's, as Polar records.
      if (customer.email && customer.email.toLowerCase() === spent.email.toLowerCase()) customer.emailVerified = true;
      return { result: await this.deps.sessions.createFor(em, customer, now) };
    });
  }
}

function generateCode(): string {
  let code = '';
  for (let i = 0; i < CUSTOMER_SESSION_CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}
