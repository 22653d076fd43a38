import { Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import { toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import type { SavedPaymentMethod } from './saved-payment-method.entity.js';

/** What a card shows (Polar's PaymentMethodCardMetadata). */
@ObjectType('PaymentMethodCardMetadata', { simpleResolvers: true })
export class PaymentMethodCardMetadataType {
  @Field() brand!: string;
  @Field() last4!: string;
  @Field(() => Int) expMonth!: number;
  @Field(() => Int) expYear!: number;
  @Field(() => String, { nullable: true }) wallet!: string | null;
}

/** A saved payment method as its customer sees it (Polar's CustomerPaymentMethod, card variant). */
@ObjectType('CustomerPaymentMethod', { simpleResolvers: true })
export class CustomerPaymentMethodType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  /** `stripe` whatever saved it, as payments show (the only value Polar's clients accept). */
  @Field() processor!: string;
  @Field(() => ID) customerId!: string;
  @Field() type!: string;
  @Field(() => PaymentMethodCardMetadataType, { nullable: true }) methodMetadata!: PaymentMethodCardMetadataType | null;
  @Field() isDefault!: boolean;

  static from(m: Readonly<SavedPaymentMethod>, isDefault: boolean): CustomerPaymentMethodType {
    return {
      id: m.id,
      createdAt: toDate(m.createdAt),
      modifiedAt: toDate(m.modifiedAt),
      processor: 'stripe',
      customerId: m.customerId,
      type: m.type,
      methodMetadata:
        m.type === 'card'
          ? {
              brand: m.brand ?? 'unknown',
              last4: m.last4 ?? '',
              expMonth: m.expMonth ?? 0,
              expYear: m.expYear ?? 0,
              wallet: null,
            }
          : null,
      isDefault,
    };
  }

  static fromRow(row: ReadRow): CustomerPaymentMethodType {
    return CustomerPaymentMethodType.from(row.r as SavedPaymentMethod, row.is_default === true);
  }
}

@ObjectType('CustomerPaymentMethodList', { simpleResolvers: true })
export class CustomerPaymentMethodList extends ListResource(CustomerPaymentMethodType) {}

/**
 * The outcome of adding a method (Polar's CustomerPaymentMethodCreateResponse): `succeeded` with the
 * method, or `requires_action` with the client secret of the processor's setup (3-D Secure).
 */
@ObjectType('CustomerPaymentMethodCreateResult', { simpleResolvers: true })
export class CustomerPaymentMethodCreateResultType {
  @Field() status!: string;
  @Field(() => CustomerPaymentMethodType, { nullable: true }) paymentMethod!: CustomerPaymentMethodType | null;
  @Field(() => String, { nullable: true }) clientSecret!: string | null;
}
