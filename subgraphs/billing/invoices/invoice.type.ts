import { Directive, Field, ID, ObjectType } from 'type-graphql';
import { OrganizationRef } from '../organizations/organization.type.js';

/**
 * What `POST …/invoice` answers over GraphQL. `generated` needs the seller's name, which identity
 * owns: the gateway fetches it and hands it back to billing with the entity (`@requires`), and
 * billing renders and stores the invoice while resolving it (invoice.reference.ts). The checks that
 * can refuse the request (404, 409, 422) run in the mutation itself, before any of that.
 */
@ObjectType('InvoiceGeneration', { simpleResolvers: true })
@Directive('@key(fields: "orderId")')
export class InvoiceGenerationType {
  @Field(() => ID) orderId!: string;
  @Field(() => OrganizationRef, { description: 'The seller: the order’s organization.' }) seller!: OrganizationRef;
  @Field({ description: 'The invoice is stored (it was rendered now, or already with these details).' })
  @Directive('@requires(fields: "seller { name }")')
  generated!: boolean;
}

/** Polar's OrderInvoice / CustomerOrderInvoice: a short-lived link to the PDF. */
@ObjectType('OrderInvoice', { simpleResolvers: true })
export class OrderInvoiceType {
  @Field({ description: 'Signed link to the PDF, valid for an hour.' }) url!: string;
}
