import type { EntityManager } from '@mikro-orm/postgresql';

/** The balance ledger's statements, run in the caller's transaction (balances/customer-balance.ts). */
export class CustomerBalanceQueries {
  constructor(private readonly em: EntityManager) {}

  /** Row-locks the customer until the transaction ends: one order of the customer uses its balance at a time. */
  async lockCustomer(customerId: string): Promise<void> {
    await this.em.execute('select id from billing.customers where id = ? for update', [customerId]);
  }

  /** The sum of the customer's ledger in `currency` (0 without entries). */
  async sum(customerId: string, currency: string): Promise<bigint> {
    const [row] = await this.em.execute<{ balance: string | null }[]>(
      'select coalesce(sum(amount), 0)::text as balance from billing.customer_balance_entries where customer_id = ? and currency = ?',
      [customerId, currency],
    );
    return BigInt(row?.balance ?? '0');
  }
}
