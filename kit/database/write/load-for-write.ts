import { type EntityClass, type EntityManager, type FilterQuery, LockMode } from '@mikro-orm/postgresql';
import { ResourceNotFound } from '../../errors.js';
import type { TenantScope } from '../tenant-scope.js';

/** Where a writable row keeps its tenant: the organization, and for rows a customer may change, the customer. */
export interface WriteTenant {
  /** The organization column's property (default `organizationId`). */
  organization?: string;
  /** The customer column's property (`id` for the customer itself); without it a customer scope finds nothing. */
  customer?: string;
}

export interface LoadForWriteOptions<T> {
  tenant?: WriteTenant;
  /** Conditions that must also hold (e.g. `{ deletedAt: null }`): a row failing them is not found either. */
  where?: FilterQuery<T>;
}

/**
 * THE tenant-scoped load of the write path: ONE statement selecting the row by id AND the tenant scope,
 * `for update` (the row stays locked until the transaction ends, so concurrent writers of one row take
 * turns). A row out of scope and a row that does not exist are the same 404: a caller cannot tell another
 * tenant's id from a wrong one. Runs inside a transaction (`runWrite`'s), as a row lock needs one.
 */
export async function loadForWrite<T extends object>(
  em: EntityManager,
  entity: EntityClass<T>,
  id: string,
  scope: TenantScope | null,
  options: LoadForWriteOptions<T> = {},
): Promise<T> {
  const where = scopedWhere<T>(id, scope, options);
  const row = where ? await em.findOne(entity, where as never, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
  if (!row) throw new ResourceNotFound();
  return row;
}

/** The row's id and its tenant conditions; `null` when the scope reads nothing. */
function scopedWhere<T>(id: string, scope: TenantScope | null, options: LoadForWriteOptions<T>): FilterQuery<T> | null {
  if (!scope?.organizationIds.length) return null;
  const { organization = 'organizationId', customer } = options.tenant ?? {};
  if (scope.customerId && !customer) return null;
  const ids = scope.organizationIds;
  const where: Record<string, unknown> = {
    ...(options.where as Record<string, unknown> | undefined),
    id,
    [organization]: ids.length === 1 ? ids[0] : { $in: [...ids] },
  };
  if (scope.customerId && customer) {
    if (customer === 'id' && scope.customerId !== id) return null;
    where[customer] = scope.customerId;
  }
  return where as FilterQuery<T>;
}
