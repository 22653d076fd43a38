import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * An order's generated invoice: the PDF itself, in PostgreSQL (bytea) so that every process of a
 * distributed deployment serves the same file with no shared disk, and the checksum of what it was
 * rendered from (`invoiceChecksum`): regenerating with the same inputs is a no-op, as at Polar.
 */
@Entity({ tableName: 'order_invoices', schema: 'billing' })
export class OrderInvoice {
  @PrimaryKey({ type: 'uuid' }) orderId!: string;
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'blob', lazy: true }) pdf!: Buffer;
  @Property({ type: 'text' }) checksum!: string;
  @Property({ type: 'timestamptz' }) generatedAt!: Date;
}
