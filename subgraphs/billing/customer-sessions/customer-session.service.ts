import type { EntityManager } from '@mikro-orm/postgresql';
import { PolarRequestValidationError } from '../../../kit/errors.js';
import { PrincipalCache } from '../../../kit/principal-cache.js';
import { generateToken, hashToken, TOKEN_PREFIXES } from '../../../kit/tokens.js';
import type { RequestContext } from '../../../kit/request-context.js';
import type { Customer } from '../customers/customer.entity.js';
import { CustomerDoesNotExist } from '../customers/customer.errors.js';
import { CustomerRepository } from '../customers/customer.repository.js';
import { runWrite } from '../events/run-write.js';
import { CustomerSession } from './customer-session.entity.js';
import type { CreateCustomerSessionInput } from './customer-session.inputs.js';

/** Polar's CUSTOMER_SESSION_TTL. */
export const CUSTOMER_SESSION_TTL_MS = 60 * 60 * 1000;

export interface CreatedCustomerSession {
  session: CustomerSession;
  token: string;
  customer: Customer;
  customerPortalUrl: string;
}

/** Customer portal sessions: created server-side for a customer the caller can see. */
export class CustomerSessionService {
  constructor(
    private readonly secret: string,
    private readonly publicUrl: string,
    /** The cache of this environment's CustomerSessionPrincipalResolver. */
    private readonly principals: PrincipalCache = new PrincipalCache(),
  ) {}

  /**
   * Ends every session of a customer for every process at once (the customer was deleted): the
   * resolver refuses them from the database already, this drops the principals cached from before.
   * Call it once the deletion is committed.
   */
  endAllFor(em: EntityManager, customerId: string): Promise<void> {
    return this.principals.announce(em, { subject: 'customer', subjectId: customerId });
  }

  async create(ctx: RequestContext, input: CreateCustomerSessionInput): Promise<CreatedCustomerSession> {
    const customer = await this.customerFor(ctx, input);
    const token = generateToken(TOKEN_PREFIXES.customerSession);
    const now = ctx.clock.now();
    // A session records no event: the frame only commits its row.
    const session = await runWrite(ctx.em, async em => ({
      result: this.newSession(em, customer, token, input.returnUrl ?? null, now),
    }));
    return { session, token, customer, customerPortalUrl: this.portalUrl(token, customer) };
  }

  /**
   * A session for a customer the caller just identified (a confirmed checkout's success page), in the
   * caller's unit of work: no principal check, the checkout's client secret was the credential.
   */
  async createFor(em: EntityManager, customer: Customer, now: Date): Promise<{ token: string }> {
    const token = generateToken(TOKEN_PREFIXES.customerSession);
    this.newSession(em, customer, token, null, now);
    await em.flush();
    return { token };
  }

  /** `<public url>/portal?customer_session_token=…&email=…` (Polar links to its hosted portal the same way). */
  portalUrl(token: string, customer: Customer): string {
    const query = new URLSearchParams({ customer_session_token: token });
    if (customer.email) query.set('email', customer.email);
    return `${this.publicUrl.replace(/\/+$/, '')}/portal?${query.toString()}`;
  }

  /** A session of `customer` opened by `token` (stored as its HMAC only), living an hour from `now`. */
  private newSession(
    em: EntityManager,
    customer: Customer,
    token: string,
    returnUrl: string | null,
    now: Date,
  ): CustomerSession {
    return em.create(CustomerSession, {
      customerId: customer.id,
      organizationId: customer.organizationId,
      tokenHash: hashToken(token, this.secret),
      returnUrl,
      expiresAt: new Date(now.getTime() + CUSTOMER_SESSION_TTL_MS),
      createdAt: now,
    } as CustomerSession);
  }

  private async customerFor(ctx: RequestContext, input: CreateCustomerSessionInput): Promise<Customer> {
    const repository = new CustomerRepository(ctx.em);
    if (input.customerId) {
      const customer = await repository.findReadable(ctx.principal, input.customerId);
      if (!customer) throw new CustomerDoesNotExist('customer_id', input.customerId);
      return customer;
    }
    if (input.externalCustomerId) {
      const customer = await repository.findReadableByExternalId(ctx.principal, input.externalCustomerId);
      if (!customer) throw new CustomerDoesNotExist('external_customer_id', input.externalCustomerId);
      return customer;
    }
    throw new PolarRequestValidationError([
      { type: 'missing', loc: ['body', 'customer_id'], msg: 'Field required', input: null },
    ]);
  }
}
