import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import { toBigInt, toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import { MinorUnits } from '../shared/scalars.js';

interface WalletRow {
  id: string;
  createdAt: string;
  modifiedAt: string | null;
  customerId: string;
  currency: string;
  balance: number | string;
}

/** Polar's CustomerWallet: a customer's balance in one currency (docs/wallets.md). */
@ObjectType('CustomerWallet', { simpleResolvers: true })
export class CustomerWalletType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => ID) customerId!: string;
  @Field(() => MinorUnits, { description: 'What the seller owes the customer, used by its next orders first.' })
  balance!: bigint;
  @Field() currency!: string;

  static fromRow(row: ReadRow): CustomerWalletType {
    const w = row.w as WalletRow;
    return {
      id: w.id,
      createdAt: toDate(w.createdAt),
      modifiedAt: toDate(w.modifiedAt),
      customerId: w.customerId,
      balance: toBigInt(w.balance),
      currency: w.currency,
    };
  }
}

@ObjectType('CustomerWalletList', { simpleResolvers: true })
export class CustomerWalletList extends ListResource(CustomerWalletType) {}
