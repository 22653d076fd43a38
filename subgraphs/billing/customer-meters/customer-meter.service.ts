import { ResourceNotFound } from '../../../kit/errors.js';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import type { ReadModel } from '../../../kit/database/read/read-model.js';
import { pageWindow, paginationOf, type Pagination } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import type { Meter } from '../meters/meter.entity.js';
import { sortCriteria } from '../shared/sorting.js';
import type { CustomerMeter } from './customer-meter.entity.js';
import type { CustomerMeterFilterInput } from './customer-meter.inputs.js';
import { type CustomerMeterReadFilters, customerMeterRead, portalCustomerMeterRead } from './customer-meter.read.js';
import { CUSTOMER_METER_DEFAULT_SORTING, CUSTOMER_METER_SORT_KEYS } from './customer-meter.sorting.js';
import { CustomerMeterType } from './customer-meter.type.js';
import { meterUnits } from './customer-meter.units.js';

/**
 * Customer meters (`/v1/customer-meters/`, the portal's `/v1/customer-portal/meters/`): a page of pairs through the
 * read path (one statement), then each pair's units (customer-meter.units.ts). The portal's model narrows to the
 * session's customer by the one tenant rule.
 */
export class CustomerMeterService {
  async list(
    ctx: RequestContext,
    filter: CustomerMeterFilterInput | null,
    page: number,
    limit: number,
    sorting: string[] | null,
  ): Promise<{ items: CustomerMeterType[]; pagination: Pagination }> {
    const filters: CustomerMeterReadFilters = {
      ...(filter?.customerId?.length ? { customerId: filter.customerId } : {}),
      ...(filter?.externalCustomerId?.length ? { externalCustomerId: filter.externalCustomerId } : {}),
      ...(filter?.meterId?.length ? { meterId: filter.meterId } : {}),
    };
    const { rows, total } = await this.model(ctx).page(
      ctx.em,
      ctx.principal,
      filters,
      sortCriteria(sorting ?? [], CUSTOMER_METER_SORT_KEYS, CUSTOMER_METER_DEFAULT_SORTING),
      pageWindow({ page, limit }),
      { organizationIds: filter?.organizationId?.length ? filter.organizationId : null },
    );
    const items: CustomerMeterType[] = [];
    for (const row of rows) items.push(await this.withUnits(ctx, row));
    return { items, pagination: paginationOf(total, limit) };
  }

  async get(ctx: RequestContext, id: string): Promise<CustomerMeterType> {
    const row = await this.model(ctx).byId(ctx.em, ctx.principal, id);
    if (!row) throw new ResourceNotFound();
    return this.withUnits(ctx, row);
  }

  private model(ctx: RequestContext): ReadModel<CustomerMeterReadFilters> {
    return ctx.principal.subject === 'customer' ? portalCustomerMeterRead : customerMeterRead;
  }

  private async withUnits(ctx: RequestContext, row: ReadRow): Promise<CustomerMeterType> {
    const cm = row.cm as CustomerMeter;
    const meter = row.meter as Meter;
    const units = await meterUnits(ctx.em, cm.organizationId, cm.customerId, meter);
    return CustomerMeterType.fromRow(row, units);
  }
}
