import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import { toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import { Metadata, type MetadataValue } from '../shared/scalars.js';
import type { Meter } from './meter.entity.js';

/** Polar's Meter (docs/meters.md). `filter` and `aggregation` are served as stored (Polar's shapes). */
@ObjectType('Meter', { simpleResolvers: true })
export class MeterType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field() name!: string;
  @Field({ description: 'scalar | token | custom' }) unit!: string;
  @Field(() => String, { nullable: true }) customLabel!: string | null;
  @Field(() => Int, { nullable: true }) customMultiplier!: number | null;
  @Field(() => GraphQLJSONObject, { description: '{conjunction, clauses}: nested and/or clauses.' })
  filter!: Record<string, unknown>;
  @Field(() => GraphQLJSONObject, { description: '{func} or {func, property}.' }) aggregation!: Record<string, unknown>;
  @Field(() => Metadata) metadata!: Record<string, MetadataValue>;
  @Field(() => ID) organizationId!: string;
  @Field(() => GraphQLISODateTime, { nullable: true }) archivedAt!: Date | null;

  static fromEntity(m: Meter): MeterType {
    return {
      id: m.id,
      createdAt: toDate(m.createdAt),
      modifiedAt: toDate(m.modifiedAt),
      name: m.name,
      unit: m.unit,
      customLabel: m.customLabel,
      customMultiplier: m.customMultiplier === null ? null : Number(m.customMultiplier),
      filter: m.filter as unknown as Record<string, unknown>,
      aggregation: m.aggregation as unknown as Record<string, unknown>,
      metadata: m.metadata,
      organizationId: m.organizationId,
      archivedAt: toDate(m.archivedAt),
    };
  }

  static fromRow(row: ReadRow): MeterType {
    return MeterType.fromEntity(row.m as Meter);
  }
}

@ObjectType('MeterList', { simpleResolvers: true })
export class MeterList extends ListResource(MeterType) {}

@ObjectType('MeterQuantity', { simpleResolvers: true })
export class MeterQuantityType {
  @Field(() => GraphQLISODateTime) timestamp!: Date;
  @Field(() => Float) quantity!: number;
}

/** Polar's MeterQuantities: one point per interval from the start, and the total over them. */
@ObjectType('MeterQuantities', { simpleResolvers: true })
export class MeterQuantitiesType {
  @Field(() => [MeterQuantityType]) quantities!: MeterQuantityType[];
  @Field(() => Float) total!: number;
}
