import { ReadModel } from '../../../kit/database/read/read-model.js';
import { CORE_READERS, PORTAL_READERS } from '../../../kit/database/tenant-scope.js';
import { WALLET_SORT_COLUMNS } from './wallet.sorting.js';

/**
 * Wallets as every list and get serves them (docs/wallets.md): the view `billing.customer_wallets`, one
 * row per customer and currency summed from the balance ledger; a customer session reads its own.
 */
export const walletRead = new ReadModel<Record<string, never>>({
  name: 'customer_wallets',
  from: 'billing.customer_wallets w',
  alias: 'w',
  readers: [...CORE_READERS, ...PORTAL_READERS],
  tenant: { organization: 'w.organization_id', customer: 'w.customer_id' },
  select: {
    w: `json_build_object('id', w.id, 'createdAt', w.created_at, 'modifiedAt', w.modified_at, 'customerId', w.customer_id, 'currency', w.currency, 'balance', w.balance)`,
  },
  filters: {},
  sorts: WALLET_SORT_COLUMNS,
  tieBreaker: 'id',
});
