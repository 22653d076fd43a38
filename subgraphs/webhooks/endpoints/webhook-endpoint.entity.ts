import { randomUUID } from 'node:crypto';
import { Entity, Property, PrimaryKey } from '@mikro-orm/decorators/legacy';

/**
 * Where an organization wants its events: a URL, the event types it subscribes to, and the secret the
 * deliveries are signed with (kept as written: the merchant reads it back, as on Polar). Soft-deleted.
 */
@Entity({ tableName: 'endpoints', schema: 'webhooks' })
export class WebhookEndpoint {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'text' }) url!: string;
  @Property({ type: 'text', nullable: true }) name: string | null = null;
  @Property({ type: 'text' }) format = 'raw';
  @Property({ type: 'text' }) secret!: string;
  @Property({ type: 'text[]' }) events: string[] = [];
  /** Its payloads' API version; null when created without one (docs/webhooks.md#api-versions). */
  @Property({ type: 'text', nullable: true }) apiVersion: string | null = null;
  @Property({ type: 'boolean' }) enabled = true;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) deletedAt: Date | null = null;
}
