import { sortCriteria } from '../shared/sorting.js';
import { orderNetSql } from './order-amounts.js';

/** Polar's order sort keys (`orders:list`), and the SQL each orders by. */
export const ORDER_SORT_COLUMNS = {
  created_at: { sql: 'o.created_at' },
  status: { sql: 'o.status' },
  invoice_number: { sql: 'o.invoice_number' },
  amount: { sql: orderNetSql('o') },
  net_amount: { sql: orderNetSql('o') },
  customer: { sql: 'c.email', join: 'left join billing.customers c on c.id = o.customer_id' },
  product: { sql: 'p.name', join: 'left join billing.products p on p.id = o.product_id' },
  discount: { sql: 'd.name', join: 'left join billing.discounts d on d.id = o.discount_id' },
  subscription: { sql: 'o.subscription_id' },
} as const;

export const ORDER_SORT_KEYS = Object.keys(ORDER_SORT_COLUMNS) as (keyof typeof ORDER_SORT_COLUMNS)[];
export const ORDER_DEFAULT_SORTING = ['-created_at'];

export const orderOrder = (sorting: readonly string[] | null | undefined) =>
  sortCriteria(sorting ?? [], ORDER_SORT_KEYS, ORDER_DEFAULT_SORTING);
