import { entityJson } from '../../../kit/database/read/entity-json.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { CORE_READERS, PORTAL_READERS } from '../../../kit/database/tenant-scope.js';
import { Member } from '../members/member.entity.js';
import { CustomerSeat } from './customer-seat.entity.js';

export interface CustomerSeatReadFilters {
  subscriptionId?: string;
  orderId?: string;
}

/**
 * Seats as lists serve them: one statement, each row the seat, its holder's e-mail and its member (null
 * when none). A merchant reads
 * its organizations' seats; a customer session the seats of what it bought (the billing customer).
 */
export const customerSeatRead = new ReadModel<CustomerSeatReadFilters>({
  name: 'customer_seats',
  from: 'billing.customer_seats s',
  alias: 's',
  readers: [...CORE_READERS, ...PORTAL_READERS],
  tenant: { organization: 's.organization_id', customer: 's.billing_customer_id' },
  select: {
    r: entityJson(CustomerSeat, 's'),
    customer_email: `(select c.email from billing.customers c where c.id = s.customer_id)`,
    member: em => `(select ${entityJson(Member, 'm')(em)} from billing.members m where m.id = s.member_id)`,
  },
  filters: {
    subscriptionId: { where: 's.subscription_id = ?' },
    orderId: { where: 's.order_id = ?' },
  },
  sorts: { created_at: { sql: 's.created_at' } },
  tieBreaker: 'id',
  tieBreakerAscending: true,
});
