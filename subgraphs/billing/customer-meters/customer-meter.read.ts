import { entityJson } from '../../../kit/database/read/entity-json.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { CORE_READERS, PORTAL_READERS } from '../../../kit/database/tenant-scope.js';
import { embeddedCustomer } from '../customers/customer.read.js';
import { Meter } from '../meters/meter.entity.js';
import { CustomerMeter } from './customer-meter.entity.js';

export interface CustomerMeterReadFilters {
  customerId?: string[];
  externalCustomerId?: string[];
  meterId?: string[];
}

const meterJson = entityJson(Meter, 'm');

/** One model per audience: the Core API's (an organization's pairs) and the portal's (the customer's own). */
function model(name: string, readers: typeof CORE_READERS) {
  return new ReadModel<CustomerMeterReadFilters>({
    name,
    from: 'billing.customer_meters cm',
    alias: 'cm',
    readers,
    tenant: { organization: 'cm.organization_id', customer: 'cm.customer_id' },
    select: {
      cm: entityJson(CustomerMeter, 'cm'),
      customer: embeddedCustomer('cm'),
      meter: em =>
        `(select ${meterJson(em)} from billing.meters m where m.id = cm.meter_id and m.organization_id = cm.organization_id)`,
    },
    filters: {
      customerId: { where: 'cm.customer_id = any(?::uuid[])' },
      externalCustomerId: {
        where:
          'exists (select 1 from billing.customers fc where fc.id = cm.customer_id and fc.external_id = any(?::text[]))',
      },
      meterId: { where: 'cm.meter_id = any(?::uuid[])' },
    },
    sorts: {
      created_at: { sql: 'cm.created_at' },
      modified_at: { sql: 'coalesce(cm.modified_at, cm.created_at)' },
      customer_id: { sql: 'cm.customer_id' },
      meter_id: { sql: 'cm.meter_id' },
      customer_name: { sql: '(select c.name from billing.customers c where c.id = cm.customer_id)' },
      meter_name: { sql: '(select m.name from billing.meters m where m.id = cm.meter_id)' },
    },
    tieBreaker: 'id',
  });
}

export const customerMeterRead = model('customer_meters', CORE_READERS);
export const portalCustomerMeterRead = model('customer_portal_meters', PORTAL_READERS);
