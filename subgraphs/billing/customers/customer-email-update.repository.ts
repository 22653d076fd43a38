import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import { Customer } from './customer.entity.js';

export interface PendingEmailUpdate {
  customer_id: string;
  organization_id: string;
  email: string;
}

/** `billing.customer_email_verifications`: a customer's pending e-mail change, by its token's HMAC. */
export class CustomerEmailUpdateRepository {
  constructor(private readonly em: EntityManager) {}

  /** Replaces the customer's pending change (at most one: an older link stops working). */
  async replace(row: {
    id: string;
    customerId: string;
    organizationId: string;
    email: string;
    tokenHash: string;
    expiresAt: Date;
    createdAt: Date;
  }): Promise<void> {
    await this.em.execute('delete from billing.customer_email_verifications where customer_id = ?', [row.customerId]);
    await this.em.execute(
      `insert into billing.customer_email_verifications (id, customer_id, organization_id, email, token_hash, expires_at, created_at)
         values (?, ?, ?, ?, ?, ?, ?)`,
      [row.id, row.customerId, row.organizationId, row.email, row.tokenHash, row.expiresAt, row.createdAt],
    );
  }

  /** The unexpired change with this token, if any (a read: `check` spends nothing). */
  async findValid(tokenHash: string, now: Date): Promise<PendingEmailUpdate | undefined> {
    const [row] = await this.em.execute<PendingEmailUpdate[]>(
      'select customer_id, organization_id, email from billing.customer_email_verifications where token_hash = ? and expires_at > ?',
      [tokenHash, now],
    );
    return row;
  }

  /** Deletes the unexpired change with this token (it works once); answers it, if it was there. */
  async spend(tokenHash: string, now: Date): Promise<PendingEmailUpdate | undefined> {
    const [row] = await this.em.execute<PendingEmailUpdate[]>(
      'delete from billing.customer_email_verifications where token_hash = ? and expires_at > ? returning customer_id, organization_id, email',
      [tokenHash, now],
    );
    return row;
  }

  /** The customer a spent token names, locked for the change (the token is the proof: no tenant scope). */
  lockLiveCustomer(id: string): Promise<Customer | null> {
    return this.em.findOne(Customer, { id, deletedAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  }
}
