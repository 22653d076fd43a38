import { type EntityManager, type EntityName, LockMode } from '@mikro-orm/postgresql';
import { TestProcessorCharge } from './test-charge.entity.js';
import { TestProcessorCustomer } from './test-customer.entity.js';
import { TestProcessorPaymentMethod } from './test-payment-method.entity.js';
import { TestProcessorRefund } from './test-refund.entity.js';

/** The test processor's ledger rows (its own pool: test-processor-ledger.ts), on the given entity manager. */
export class TestProcessorRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * `INSERT … ON CONFLICT (idempotency_key) DO NOTHING RETURNING *`: the new row, or else the row that holds
   * the key: the first one (committed by another transaction, which the insert waited for).
   */
  async insertIgnoringDuplicate<T extends { idempotencyKey: string }>(entity: EntityName<T>, data: T): Promise<T> {
    // The new row comes back from the insert itself; only a replay reads the first one.
    const inserted = await this.em
      .createQueryBuilder(entity)
      .insert(data as any)
      .onConflict('idempotencyKey' as any)
      .ignore()
      .returning('*' as any)
      .execute<Record<string, unknown> | undefined>('get', false);
    if (inserted) return this.em.map(entity, inserted as any);
    return this.em.findOneOrFail(entity, { idempotencyKey: data.idempotencyKey } as any, { refresh: true } as any);
  }

  async customerExists(id: string): Promise<boolean> {
    return (await this.em.count(TestProcessorCustomer, { id })) > 0;
  }

  /** A payment method still saved. */
  findSavedMethod(id: string): Promise<TestProcessorPaymentMethod | null> {
    return this.em.findOne(TestProcessorPaymentMethod, { id, status: 'saved' });
  }

  /** The charge, row-locked until the transaction ends (its refunds run one at a time). */
  lockCharge(id: string): Promise<TestProcessorCharge | null> {
    return this.em.findOne(TestProcessorCharge, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  }

  async setChargeSavedMethod(chargeId: string, savedPaymentMethodId: string): Promise<void> {
    await this.em.nativeUpdate(TestProcessorCharge, { id: chargeId }, { savedPaymentMethodId });
  }

  async setAmountRefunded(chargeId: string, amountRefunded: bigint): Promise<void> {
    await this.em.nativeUpdate(TestProcessorCharge, { id: chargeId }, { amountRefunded });
  }

  /** A charge or a saved method by the client secret of its 3-D Secure challenge (`lock`: row-locked, in a transaction). */
  async byClientSecret(
    clientSecret: string,
    locked = true,
  ): Promise<{ charge: TestProcessorCharge | null; method: TestProcessorPaymentMethod | null }> {
    const lock = locked ? ({ lockMode: LockMode.PESSIMISTIC_WRITE } as const) : {};
    const charge = await this.em.findOne(TestProcessorCharge, { clientSecret }, lock);
    if (charge) return { charge, method: null };
    return { charge: null, method: await this.em.findOne(TestProcessorPaymentMethod, { clientSecret }, lock) };
  }

  findMethod(id: string): Promise<TestProcessorPaymentMethod | null> {
    return this.em.findOne(TestProcessorPaymentMethod, { id });
  }

  lockMethod(id: string): Promise<TestProcessorPaymentMethod | null> {
    return this.em.findOne(TestProcessorPaymentMethod, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  }

  findRefundByKey(idempotencyKey: string): Promise<TestProcessorRefund | null> {
    return this.em.findOne(TestProcessorRefund, { idempotencyKey });
  }
}
