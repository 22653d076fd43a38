// type-graphql reads design-time metadata; this module can be the first billing type to load.
import 'reflect-metadata';
import { Directive, Field, ID, ObjectType } from 'type-graphql';

/**
 * A key stub of identity's `Organization`: billing knows only its id (from the principal) and adds
 * fields to it (`Organization.products`, …) in its own resolver files.
 */
@ObjectType('Organization')
@Directive('@key(fields: "id")')
export class OrganizationRef {
  @Field(() => ID) id!: string;
  /**
   * identity's, never resolved here: declared so an invoice's generation can `@requires` the seller's
   * name (invoices/invoice.type.ts). Absent on every stub billing returns.
   */
  @Field(() => String)
  @Directive('@external')
  name?: string;
}
