import { Field, Float, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import { toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import type { Customer } from '../customers/customer.entity.js';
import { CustomerType } from '../customers/customer.type.js';
import type { Meter } from '../meters/meter.entity.js';
import { MeterType } from '../meters/meter.type.js';
import type { CustomerMeter } from './customer-meter.entity.js';
import type { MeterUnits } from './customer-meter.units.js';

/** Polar's CustomerMeter (docs/usage-billing.md#customer-meters): units since the last reset. */
@ObjectType('CustomerMeter', { simpleResolvers: true })
export class CustomerMeterType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => ID) customerId!: string;
  @Field(() => ID) meterId!: string;
  @Field(() => Float) consumedUnits!: number;
  @Field(() => Float) creditedUnits!: number;
  @Field(() => Float, { description: 'credited − consumed; negative once usage passes the credits.' }) balance!: number;
  @Field(() => CustomerType) customer!: CustomerType;
  @Field(() => MeterType) meter!: MeterType;

  static fromRow(row: ReadRow, units: MeterUnits): CustomerMeterType {
    const cm = row.cm as CustomerMeter;
    return {
      id: cm.id,
      createdAt: toDate(cm.createdAt),
      modifiedAt: toDate(cm.modifiedAt),
      customerId: cm.customerId,
      meterId: cm.meterId,
      consumedUnits: Number(units.consumed),
      creditedUnits: Number(units.credited),
      balance: Number(units.balance),
      customer: CustomerType.fromEntity(row.customer as Customer),
      meter: MeterType.fromEntity(row.meter as Meter),
    };
  }
}

@ObjectType('CustomerMeterList', { simpleResolvers: true })
export class CustomerMeterList extends ListResource(CustomerMeterType) {}
