import type { EntityManager } from '@mikro-orm/postgresql';
import { Customer } from '../customers/customer.entity.js';
import { CustomerSession } from './customer-session.entity.js';

/** What a spent code names: its customer and the address it was sent to. */
export interface SpentCustomerSessionCode {
  customer_id: string;
  email: string;
}

/** Customer sessions, the one-time codes that open them, and the customer a session belongs to. */
export class CustomerSessionRepository {
  constructor(private readonly em: EntityManager) {}

  findById(id: string): Promise<CustomerSession | null> {
    return this.em.findOne(CustomerSession, { id });
  }

  findByTokenHash(tokenHash: string): Promise<CustomerSession | null> {
    return this.em.findOne(CustomerSession, { tokenHash });
  }

  /** Deletes the session; answers how many rows went (0 when another request deleted it first). */
  delete(id: string): Promise<number> {
    return this.em.nativeDelete(CustomerSession, { id });
  }

  /** The live customer a session opens, only its id and organization. */
  findLiveCustomerIdentity(id: string): Promise<Pick<Customer, 'id' | 'organizationId'> | null> {
    return this.em.findOne(Customer, { id, deletedAt: null }, { fields: ['id', 'organizationId'] });
  }

  findLiveCustomer(id: string): Promise<Customer | null> {
    return this.em.findOne(Customer, { id, deletedAt: null });
  }

  /** Stores a code by its hash. */
  async insertCode(code: {
    id: string;
    customerId: string;
    organizationId: string;
    email: string;
    codeHash: string;
    expiresAt: Date;
    createdAt: Date;
  }): Promise<void> {
    await this.em.execute(
      `insert into billing.customer_session_codes (id, customer_id, organization_id, email, code_hash, expires_at, created_at)
         values (?, ?, ?, ?, ?, ?, ?)`,
      [code.id, code.customerId, code.organizationId, code.email, code.codeHash, code.expiresAt, code.createdAt],
    );
  }

  /** Deletes the unexpired code with this hash (a code works once); answers what it named, if it was there. */
  async spendCode(codeHash: string, now: Date): Promise<SpentCustomerSessionCode | undefined> {
    const [spent] = await this.em.execute<SpentCustomerSessionCode[]>(
      'delete from billing.customer_session_codes where code_hash = ? and expires_at > ? returning customer_id, email',
      [codeHash, now],
    );
    return spent;
  }
}
