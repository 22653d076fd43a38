import { Field, ID, InputType } from 'type-graphql';
import { Metadata } from '../shared/scalars.js';
import { BenefitProperties } from './benefit.type.js';

@InputType('CreateBenefitInput')
export class CreateBenefitInput {
  @Field(() => ID, { nullable: true }) organizationId?: string | null;
  @Field(() => String, { description: 'One of the eight benefit types.' }) type!: string;
  @Field() description!: string;
  @Field(() => String, { nullable: true, description: 'draft | private | public' }) visibility?: string | null;
  @Field(() => BenefitProperties, { description: "The type's properties, snake_case keys as on Polar's wire." })
  properties!: Record<string, unknown>;
  @Field(() => Metadata, { nullable: true }) metadata?: Record<string, string | number | boolean> | null;
}

/** Absent fields are left as they are; `type` names the benefit's type (it cannot change). */
@InputType('UpdateBenefitInput')
export class UpdateBenefitInput {
  @Field(() => String, { nullable: true }) type?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) visibility?: string | null;
  @Field(() => BenefitProperties, { nullable: true }) properties?: Record<string, unknown> | null;
  @Field(() => Metadata, { nullable: true }) metadata?: Record<string, string | number | boolean> | null;
}
