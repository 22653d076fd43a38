import type { EntityManager } from '@mikro-orm/postgresql';
import { tenantScope } from '../../../kit/database/tenant-scope.js';
import { loadForWrite } from '../../../kit/database/write/load-for-write.js';
import type { ChangeOutcome } from '../../../kit/database/write/write-frame.js';
import { PolarRequestValidationError, ResourceNotFound } from '../../../kit/errors.js';
import { pageWindow, paginationOf, type Pagination, type PageRequest } from '../../../kit/graphql/pagination.js';
import { targetOrganization } from '../../../kit/target-organization.js';
import { metadataFilter } from '../shared/metadata-filter.js';
import { recordSystemEvent } from '../system-events/system-events.js';
import type { RequestContext } from '../../../kit/request-context.js';
import type { CustomerSessionService } from '../customer-sessions/customer-session.service.js';
import { runWrite } from '../events/run-write.js';
import type { CustomerOwners } from './customer-owners.js';
import { CustomerType as CustomerKind } from '../shared/enums.js';
import { CustomerType } from './customer.type.js';
import { customersCsv } from './customer.csv.js';
import { customerEvent } from './customer.events.js';
import type { Address } from './customer.entity.js';
import { Customer } from './customer.entity.js';
import {
  CustomerEmailTaken,
  CustomerExternalIdImmutable,
  CustomerExternalIdTaken,
  CustomerTypeDowngrade,
} from './customer.errors.js';
import type {
  AddressInput,
  CreateCustomerInput,
  CustomerFilter,
  CustomerPortalCustomerUpdateInput,
  UpdateCustomerByExternalIdInput,
  UpdateCustomerInput,
} from './customer.inputs.js';
import { CustomerRepository } from './customer.repository.js';
import { customerRead, type CustomerReadFilters } from './customer.read.js';
import { CUSTOMER_DEFAULT_SORTING, CUSTOMER_SORT_KEYS } from './customer.sorting.js';
import { sortCriteria } from '../shared/sorting.js';
import { parseTaxId } from '../../../kit/tax/tax-id.js';
import { checkCustomerFields } from './customer.validation.js';
import {
  endSubscriptionsOfDeletedCustomer,
  recordSubscriptionEvents,
  type SubscriptionChangeRecorder,
} from '../subscriptions/customer-deletion.js';
import { organizationNow } from '../time/organization-clocks.js';

export interface CustomerListQuery extends PageRequest {
  filter?: CustomerFilter | null;
  sorting?: string[] | null;
}

const UNIQUE_VIOLATION = '23505';

/** Customer use cases. Stateless apart from its collaborators: every call receives the request context. */
export class CustomerService {
  constructor(
    private readonly recordSubscriptionChanges: SubscriptionChangeRecorder = recordSubscriptionEvents,
    private readonly sessions?: Pick<CustomerSessionService, 'endAllFor'>,
    private readonly owners?: CustomerOwners,
  ) {}

  /** One page through the read path (one statement, plus the count when the page cannot tell it). */
  async list(
    ctx: RequestContext,
    query: CustomerListQuery,
  ): Promise<{ items: CustomerType[]; pagination: Pagination }> {
    const filter = query.filter ?? {};
    const filters: CustomerReadFilters = {};
    if (filter.email) filters.email = filter.email;
    if (filter.query) filters.query = filter.query;
    const metadata = Object.entries(metadataFilter(filter.metadata) ?? {}).filter(([, values]) => values.length);
    if (metadata.length) filters.metadata = Object.fromEntries(metadata);
    const { rows, total } = await customerRead.page(
      ctx.em,
      ctx.principal,
      filters,
      sortCriteria(query.sorting ?? [], CUSTOMER_SORT_KEYS, CUSTOMER_DEFAULT_SORTING),
      pageWindow(query),
      { organizationIds: filter.organizationId },
    );
    return {
      items: rows.map(row => CustomerType.fromEntity(row.r as Customer)),
      pagination: paginationOf(total, query.limit),
    };
  }

  /**
   * `GET /v1/customers/export`: every live customer of the readable organizations (narrowed to
   * `organizationIds` when given; an unreadable one drops out) as Polar's CSV, newest first.
   */
  async export(ctx: RequestContext, organizationIds: string[] | null | undefined): Promise<string> {
    const { rows } = await customerRead.page(
      ctx.em,
      ctx.principal,
      {},
      sortCriteria([], CUSTOMER_SORT_KEYS, CUSTOMER_DEFAULT_SORTING),
      { limit: 1_000_000, offset: 0 },
      { organizationIds: organizationIds?.length ? organizationIds : null },
    );
    return customersCsv(rows.map(row => CustomerType.fromEntity(row.r as Customer)));
  }

  /** The customer as served (read path). @throws ResourceNotFound when absent, deleted or not readable. */
  async read(ctx: RequestContext, id: string): Promise<CustomerType> {
    const row = await customerRead.byId(ctx.em, ctx.principal, id);
    if (!row) throw new ResourceNotFound();
    return CustomerType.fromEntity(row.r as Customer);
  }

  /** @throws ResourceNotFound when absent, deleted or not readable by the caller (same answer for all). */
  async get(ctx: RequestContext, id: string): Promise<Customer> {
    const customer = await new CustomerRepository(ctx.em).findReadable(ctx.principal, id);
    if (!customer) throw new ResourceNotFound();
    return customer;
  }

  async getByExternalId(ctx: RequestContext, externalId: string): Promise<Customer> {
    const customer = await new CustomerRepository(ctx.em).findReadableByExternalId(ctx.principal, externalId);
    if (!customer) throw new ResourceNotFound();
    return customer;
  }

  async create(ctx: RequestContext, input: CreateCustomerInput): Promise<Customer> {
    const type = (input.type ?? CustomerKind.INDIVIDUAL) as CustomerKind;
    checkCustomerFields({
      type,
      email: input.email,
      name: input.name,
      metadata: input.metadata,
      country: input.billingAddress?.country,
      emailRequired: type === CustomerKind.INDIVIDUAL,
    });
    const organizationId = await targetOrganization(ctx.principal, input.organizationId);
    const billingAddress = input.billingAddress ? storedAddress(input.billingAddress) : null;
    // A create has no row to load: the checks and the new row share the frame's transaction.
    return runWrite(ctx.em, async em => {
      const repository = new CustomerRepository(em);
      if (input.email && (await repository.findByEmail(organizationId, input.email)))
        throw new CustomerEmailTaken(input.email);
      if (input.externalId != null && (await repository.findByExternalId(organizationId, input.externalId)))
        throw new CustomerExternalIdTaken(input.externalId);
      const customer = em.create(Customer, {
        organizationId,
        type,
        email: input.email ?? null,
        name: input.name ?? null,
        externalId: input.externalId ?? null,
        billingAddress,
        taxId: input.taxId ? parseTaxId(input.taxId, billingAddress?.country) : null,
        locale: input.locale ?? null,
        metadata: (input.metadata ?? {}) as Customer['metadata'],
        createdAt: ctx.clock.now(),
      } as Customer);
      // Events may have named the external id before the customer existed (Polar resolves it at creation too).
      if (customer.externalId)
        customer.firstUserEventAt = await repository.firstUserEventAt(organizationId, customer.externalId);
      const created = customerEvent('customer.created', customer, ctx.clock.now());
      await flushCustomer(em, customer);
      this.owners?.added(em, customer, customer.createdAt, input.owner);
      await recordSystemEvent(em, {
        organizationId,
        customerId: customer.id,
        name: 'customer.created',
        metadata: {
          customer_id: customer.id,
          customer_email: customer.email,
          customer_name: customer.name,
          customer_external_id: customer.externalId,
        },
        at: customer.createdAt,
      });
      return { result: customer, events: [created] };
    });
  }

  /**
   * Applies the given fields; absent ones are left as they are. `external_id` may be set when it has
   * none, never changed; a changed e-mail is unverified again.
   */
  async update(ctx: RequestContext, id: string, input: UpdateCustomerInput): Promise<Customer> {
    return this.writeCustomer(ctx, id, (customer, writeCtx) => this.applyUpdate(writeCtx, customer, input));
  }

  /**
   * The customer portal's `PATCH /v1/customer-portal/customers/me` (Polar's customer_portal/service/
   * customer.py): billing name, billing address (never reset to null), tax id; `customer.updated`.
   */
  async updateFromPortal(ctx: RequestContext, id: string, input: CustomerPortalCustomerUpdateInput): Promise<Customer> {
    if (input.billingAddressNull)
      throw new PolarRequestValidationError([
        {
          type: 'missing',
          loc: ['body', 'billing_address'],
          msg: 'Customer billing address cannot be reset to null once set.',
          input: null,
        },
      ]);
    return this.writeCustomer(ctx, id, (customer, writeCtx) => {
      if (input.billingName != null) customer.billingName = input.billingName.trim() || null;
      return this.applyUpdate(writeCtx, customer, {
        ...(input.billingAddress ? { billingAddress: input.billingAddress } : {}),
        ...(input.taxId !== undefined ? { taxId: input.taxId } : {}),
      });
    });
  }

  async updateByExternalId(
    ctx: RequestContext,
    externalId: string,
    input: UpdateCustomerByExternalIdInput,
  ): Promise<Customer> {
    // The external id names the row; the write then loads it by id like every other update.
    const found = await this.getByExternalId(ctx, externalId);
    return this.writeCustomer(ctx, found.id, (customer, writeCtx) => this.applyUpdate(writeCtx, customer, input));
  }

  /**
   * Soft delete. As Polar does, the customer's billable subscriptions (active, trialing, past due; not
   * yet ended) are revoked at once in the same transaction, each with the outbox events of
   * `DELETE /v1/subscriptions/{id}`: `subscription.updated`, `.canceled`, `.revoked`.
   */
  async delete(ctx: RequestContext, id: string): Promise<void> {
    await this.softDelete(ctx, await this.get(ctx, id));
  }

  async deleteByExternalId(ctx: RequestContext, externalId: string): Promise<void> {
    await this.softDelete(ctx, await this.getByExternalId(ctx, externalId));
  }

  /**
   * The write path: the subscriptions end first (they are locked before the customer's row, the order a
   * renewal takes them in), then the live customer is loaded for write in the tenant scope and marked
   * deleted. `customer.deleted` is timed before the subscriptions' events, so a consumer sees it first.
   */
  private async softDelete(ctx: RequestContext, found: Customer): Promise<void> {
    await runWrite(ctx.em, async em => {
      // The organization's clock: the subscriptions end at its time (the sandbox clock in the sandbox).
      const now = await organizationNow(ctx, found.organizationId);
      const publishEnded = await endSubscriptionsOfDeletedCustomer(em, found.id, now, this.recordSubscriptionChanges);
      const customer = await loadForWrite(em, Customer, found.id, customerWriteScope(ctx), {
        tenant: { customer: 'id' },
        where: { deletedAt: null },
      });
      customer.deletedAt = now;
      customer.modifiedAt = now;
      const deleted = customerEvent('customer.deleted', customer, ctx.clock.now());
      await em.flush();
      await publishEnded();
      return { result: undefined, events: [deleted] };
    });
    // Its portal sessions end with it, in every process (the resolver refuses them from the database already).
    await this.sessions?.endAllFor(ctx.em, found.id);
  }

  /**
   * The write path (kit/database/write): the live customer loaded and locked in one tenant-scoped
   * statement (a customer session may change itself only; another tenant's id is 404), changed, and its
   * event recorded in the same transaction.
   */
  private writeCustomer(
    ctx: RequestContext,
    id: string,
    change: (customer: Customer, writeCtx: RequestContext) => Promise<ChangeOutcome<Customer>>,
  ): Promise<Customer> {
    return runWrite(ctx.em, async em => {
      const customer = await loadForWrite(em, Customer, id, customerWriteScope(ctx), {
        tenant: { customer: 'id' },
        where: { deletedAt: null },
      });
      return change(customer, { ...ctx, em });
    });
  }

  private async applyUpdate(
    ctx: RequestContext,
    customer: Customer,
    input: UpdateCustomerInput | UpdateCustomerByExternalIdInput,
  ): Promise<ChangeOutcome<Customer>> {
    const change = input as UpdateCustomerInput;
    const nextType = (change.type ?? customer.type) as CustomerKind;
    const nextEmail = input.email !== undefined ? input.email : customer.email;
    checkCustomerFields({
      type: change.type,
      email: input.email,
      name: input.name,
      metadata: input.metadata,
      country: input.billingAddress?.country,
      emailRequired: nextType === CustomerKind.INDIVIDUAL && input.email !== undefined,
    });
    if (change.type != null && change.type !== customer.type && change.type === CustomerKind.INDIVIDUAL)
      throw new CustomerTypeDowngrade(change.type);
    const repository = new CustomerRepository(ctx.em);
    if (change.externalId !== undefined && change.externalId !== customer.externalId) {
      if (customer.externalId !== null || change.externalId === null)
        throw new CustomerExternalIdImmutable(change.externalId);
      if (await repository.findByExternalId(customer.organizationId, change.externalId))
        throw new CustomerExternalIdTaken(change.externalId);
      customer.externalId = change.externalId;
      const first = await repository.firstUserEventAt(customer.organizationId, change.externalId);
      if (first && (!customer.firstUserEventAt || first < customer.firstUserEventAt)) customer.firstUserEventAt = first;
    }
    if (input.email !== undefined && (input.email ?? '').toLowerCase() !== (customer.email ?? '').toLowerCase()) {
      if (input.email) {
        const other = await repository.findByEmail(customer.organizationId, input.email);
        if (other && other.id !== customer.id) throw new CustomerEmailTaken(input.email);
      }
      customer.email = nextEmail ?? null;
      customer.emailVerified = false;
    } else if (input.email) {
      customer.email = input.email; // same address, maybe another letter case
    }
    customer.type = nextType;
    if (input.name !== undefined) customer.name = input.name ?? null;
    // NOTE: Polar does not reset a billing address to null; an explicit null keeps the current one.
    if (input.billingAddress != null) customer.billingAddress = storedAddress(input.billingAddress);
    if (input.taxId !== undefined)
      customer.taxId = input.taxId ? parseTaxId(input.taxId, customer.billingAddress?.country) : null;
    if (input.locale !== undefined) customer.locale = input.locale ?? null;
    if (input.metadata != null) customer.metadata = input.metadata as Customer['metadata'];
    customer.modifiedAt = ctx.clock.now();
    // Flushed here so a lost uniqueness race answers as the checks above would (the frame's flush is then a no-op).
    await flushCustomer(ctx.em, customer);
    if (input.email !== undefined) await this.owners?.emailChanged(ctx.em, customer, customer.modifiedAt);
    return { result: customer, events: [customerEvent('customer.updated', customer, ctx.clock.now())] };
  }
}

/** The scope of a customer write: the read path's (a customer session reaches itself only). */
function customerWriteScope(ctx: RequestContext) {
  return tenantScope(ctx.principal, customerRead.definition.readers);
}

/** Flushes; the partial unique indexes decide races the checks before it lose (409 as those checks). */
export async function flushCustomer(em: EntityManager, customer: Customer): Promise<void> {
  try {
    await em.flush();
  } catch (error) {
    if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
    const constraint = String((error as { constraint?: string }).constraint ?? (error as Error).message);
    if (constraint.includes('external_id')) throw new CustomerExternalIdTaken(customer.externalId ?? '');
    throw new CustomerEmailTaken(customer.email ?? '');
  }
}

/** An address as billing stores it (snake_case keys, as on the wire). */
export function storedAddress(a: AddressInput): Address {
  return {
    line1: a.line1 ?? null,
    line2: a.line2 ?? null,
    postal_code: a.postalCode ?? null,
    city: a.city ?? null,
    state: a.state ?? null,
    country: a.country,
  };
}
