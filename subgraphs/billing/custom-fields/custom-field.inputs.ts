import { Field, ID, InputType } from 'type-graphql';
import { Metadata } from '../shared/scalars.js';
import { CustomFieldProperties } from './custom-field.type.js';

@InputType('CustomFieldFilter')
export class CustomFieldFilterInput {
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
  @Field(() => String, { nullable: true }) query?: string | null;
  @Field(() => [String], { nullable: true }) type?: string[] | null;
}

/** Polar's CustomFieldCreate; `properties` as the wire has them (checked at the edge per type). */
@InputType('CustomFieldCreateInput')
export class CustomFieldCreateInput {
  @Field(() => String, { description: 'text | number | date | checkbox | select' }) type!: string;
  @Field() slug!: string;
  @Field() name!: string;
  @Field(() => ID, { nullable: true }) organizationId?: string | null;
  @Field(() => CustomFieldProperties) properties!: Record<string, unknown>;
  @Field(() => Metadata, { nullable: true }) metadata?: Record<string, string | number | boolean> | null;
}

/** Polar's CustomFieldUpdate: `type` must be the field's own; absent fields are left as they are. */
@InputType('CustomFieldUpdateInput')
export class CustomFieldUpdateInput {
  @Field(() => String) type!: string;
  @Field(() => String, { nullable: true }) slug?: string | null;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => CustomFieldProperties, { nullable: true }) properties?: Record<string, unknown> | null;
  @Field(() => Metadata, { nullable: true }) metadata?: Record<string, string | number | boolean> | null;
}
