import { GraphQLScalarType } from 'graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import { toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import { Metadata } from '../shared/scalars.js';
import type { CustomField } from './custom-field.entity.js';

/** A custom field type's configuration, exactly as Polar's wire shows it (snake_case keys). */
export const CustomFieldProperties = new GraphQLScalarType({
  ...GraphQLJSONObject.toConfig(),
  name: 'CustomFieldProperties',
  description: "A custom field's `properties`, as Polar's wire shows them (snake_case keys).",
});

/** Polar's CustomField (docs/custom-fields.md): one GraphQL type for the five `type`s. */
@ObjectType('CustomField', { simpleResolvers: true })
export class CustomFieldType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => Metadata) metadata!: Record<string, string | number | boolean>;
  @Field(() => String, { description: 'text | number | date | checkbox | select' }) type!: string;
  @Field() slug!: string;
  @Field() name!: string;
  @Field(() => ID) organizationId!: string;
  @Field(() => CustomFieldProperties) properties!: Record<string, unknown>;

  static fromRow(row: ReadRow): CustomFieldType {
    return CustomFieldType.fromEntity(row.f as CustomField);
  }

  static fromEntity(f: Readonly<CustomField>): CustomFieldType {
    return {
      id: f.id,
      createdAt: toDate(f.createdAt),
      modifiedAt: toDate(f.modifiedAt),
      metadata: f.metadata ?? {},
      type: f.type,
      slug: f.slug,
      name: f.name,
      organizationId: f.organizationId,
      properties: f.properties ?? {},
    };
  }
}

@ObjectType('CustomFieldList', { simpleResolvers: true })
export class CustomFieldList extends ListResource(CustomFieldType) {}
