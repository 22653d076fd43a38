import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * A checkout link (Polar's CheckoutLink): a shareable URL that opens a fresh checkout of its
 * products each time it is followed. It holds the checkout's settings, never a customer; the
 * client secret (`polar_cl_…`) is what the public URL carries. Deleted links are kept (soft delete)
 * so checkouts opened from them still make sense.
 */
@Entity({ tableName: 'checkout_links', schema: 'billing' })
export class CheckoutLink {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'text' }) clientSecret!: string;
  @Property({ type: 'uuid[]' }) productIds: string[] = [];
  @Property({ type: 'uuid', nullable: true }) discountId: string | null = null;
  @Property({ type: 'boolean' }) allowDiscountCodes = true;
  @Property({ type: 'boolean' }) requireBillingAddress = false;
  @Property({ type: 'text', nullable: true }) label: string | null = null;
  @Property({ type: 'text', nullable: true }) successUrl: string | null = null;
  @Property({ type: 'text', nullable: true }) returnUrl: string | null = null;
  @Property({ type: 'text', nullable: true }) trialInterval: string | null = null;
  @Property({ type: 'integer', nullable: true }) trialIntervalCount: number | null = null;
  @Property({ type: 'json' }) metadata: Record<string, string | number | boolean> = {};
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) deletedAt: Date | null = null;
}
