import { ResourceNotFound } from '../../../kit/errors.js';
import { type PageRequest, type Pagination, pageWindow, paginationOf } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { walletRead } from './wallet.read.js';
import { walletOrder } from './wallet.sorting.js';
import { CustomerWalletType } from './wallet.type.js';

/** Wallet reads through the read path (docs/wallets.md); a wallet changes only as its ledger does. */
export class WalletService {
  async list(
    ctx: RequestContext,
    query: PageRequest & { sorting?: string[] | null },
  ): Promise<{ items: CustomerWalletType[]; pagination: Pagination }> {
    const { rows, total } = await walletRead.page(
      ctx.em,
      ctx.principal,
      {},
      walletOrder(query.sorting),
      pageWindow(query),
    );
    return { items: rows.map(CustomerWalletType.fromRow), pagination: paginationOf(total, query.limit) };
  }

  async get(ctx: RequestContext, id: string): Promise<CustomerWalletType> {
    const row = await walletRead.byId(ctx.em, ctx.principal, id);
    if (!row) throw new ResourceNotFound('Wallet not found');
    return CustomerWalletType.fromRow(row);
  }
}
