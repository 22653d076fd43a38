import type { EntityManager } from '@mikro-orm/postgresql';
import { scopedOrganizationIds } from '../../../kit/database/tenant-scope.js';
import type { Principal } from '../../../kit/principal.js';
import { onConnectionOf } from '../../../kit/database/read-replicas.js';
import { Subscription } from './subscription.entity.js';

/** One row of the CSV export: the subscription and the names its columns show. */
export interface SubscriptionExportRow {
  subscription: Subscription;
  customerEmail: string | null;
  customerExternalId: string | null;
  productName: string | null;
}

/** A parameter list for MikroORM's `?` placeholders (values are bound, never spliced by us). */
class Params {
  readonly values: unknown[] = [];
  add(value: string | number | boolean): string {
    this.values.push(value);
    return '?';
  }
  list(values: readonly string[]): string {
    return `(${values.map(v => this.add(v)).join(', ')})`;
  }
}

/**
 * The write path's reads of subscriptions (managed entities for the unit of work) and the CSV export,
 * scoped by the one tenant rule (kit/database/tenant-scope.ts): another tenant's id is "not
 * found". Lists and gets go through the read path instead (subscription.read.ts).
 */
export class SubscriptionRepository {
  constructor(private readonly em: EntityManager) {}

  /** The CSV export: every readable subscription of the given organizations, newest first. */
  async exportRows(
    principal: Principal,
    organizationIds: readonly string[] | undefined,
  ): Promise<SubscriptionExportRow[]> {
    const scope = this.scope(principal, organizationIds);
    if (!scope.length) return [];
    const params = new Params();
    const rows = (await this.execute(
      `select s.*, c.email as "__customer_email", c.external_id as "__customer_external_id", p.name as "__product_name"
       from billing.subscriptions s
       left join billing.customers c on c.id = s.customer_id
       left join billing.products p on p.id = s.product_id
       where s.organization_id in ${params.list(scope)}
       order by s.started_at desc nulls last, s.id desc`,
      params.values,
    )) as Record<string, unknown>[];
    return rows.map(row => {
      const { __customer_email, __customer_external_id, __product_name, ...columns } = row;
      return {
        subscription: this.em.map(Subscription, columns as never),
        customerEmail: (__customer_email as string | null) ?? null,
        customerExternalId: (__customer_external_id as string | null) ?? null,
        productName: (__product_name as string | null) ?? null,
      };
    });
  }

  findReadable(principal: Principal, id: string): Promise<Subscription | null> {
    const scope = scopedOrganizationIds(principal);
    if (!scope.length) return Promise.resolve(null);
    return this.em.findOne(Subscription, { id, organizationId: { $in: scope } });
  }

  /** For reference resolvers: one query per batch, never another tenant's rows. */
  findReadableMany(principal: Principal, ids: readonly string[]): Promise<Subscription[]> {
    const scope = scopedOrganizationIds(principal);
    if (!scope.length || !ids.length) return Promise.resolve([]);
    return this.em.find(Subscription, { id: { $in: [...ids] }, organizationId: { $in: scope } });
  }

  /** The readable organizations, narrowed to `requested` when given (an unreadable one simply drops out). */
  private scope(principal: Principal, requested: readonly string[] | undefined): string[] {
    const readable = scopedOrganizationIds(principal);
    return requested ? readable.filter(id => requested.includes(id)) : readable;
  }

  private execute(sql: string, params: unknown[]): Promise<unknown[]> {
    // The export's statement runs on the replica when its resolver asked for it (kit/database/read-replicas.ts).
    return onConnectionOf(
      this.em,
      type =>
        this.em.getConnection(type).execute(sql, params, 'all', this.em.getTransactionContext()) as Promise<unknown[]>,
    );
  }
}
