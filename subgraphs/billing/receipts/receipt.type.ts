import { Directive, Field, Float, ID, ObjectType } from 'type-graphql';
import { OrganizationRef } from '../organizations/organization.type.js';

/** Polar's OrderReceipt / CustomerOrderReceipt: a short-lived link to the receipt PDF. */
@ObjectType('OrderReceipt', { simpleResolvers: true })
export class OrderReceiptType {
  @Field({ description: 'Signed link to the receipt PDF, valid for an hour.' }) url!: string;
}

/**
 * The PDF a signed receipt link opens. `pdf` needs the seller's name, which identity owns: the gateway
 * fetches it and hands it back with the entity (`@requires`), and billing renders the receipt while
 * resolving it (receipt.reference.ts). The link is the key, so the reference is checked again there.
 */
@ObjectType('ReceiptFile', { simpleResolvers: true })
@Directive('@key(fields: "orderId expires signature")')
export class ReceiptFileType {
  @Field(() => ID) orderId!: string;
  @Field(() => Float) expires!: number;
  @Field() signature!: string;
  @Field(() => OrganizationRef, { description: 'The seller: the order’s organization.' }) seller!: OrganizationRef;
  @Field(() => String, { nullable: true, description: 'The receipt PDF, base64.' })
  @Directive('@requires(fields: "seller { name }")')
  pdf!: string | null;
}
