import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * An event name of an organization with its human label (Polar's EventType): made by the ingest for every new
 * user event name (label = name), relabelled by `PATCH /v1/event-types/{id}`. `labelPropertySelector` names a
 * metadata path whose value, when an event has it, is that event's label.
 */
@Entity({ tableName: 'event_types', schema: 'billing' })
export class EventType {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'text' }) name!: string;
  @Property({ type: 'text' }) label!: string;
  @Property({ type: 'text', nullable: true }) labelPropertySelector: string | null = null;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
}
