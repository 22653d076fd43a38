import { Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import { toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import type { EventNameRow } from './event-name.repository.js';
import type { EventType } from './event-type.entity.js';
import { SYSTEM_EVENT_LABELS } from './system-event-labels.js';

/** Polar's EventType: an organization's event name and its label. */
@ObjectType('EventType', { simpleResolvers: true })
export class EventTypeType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field() name!: string;
  @Field() label!: string;
  @Field(() => String, { nullable: true }) labelPropertySelector!: string | null;
  @Field(() => ID) organizationId!: string;

  static fromEntity(t: EventType): EventTypeType {
    return {
      id: t.id,
      createdAt: toDate(t.createdAt),
      modifiedAt: toDate(t.modifiedAt),
      name: t.name,
      label: t.label,
      labelPropertySelector: t.labelPropertySelector,
      organizationId: t.organizationId,
    };
  }
}

/** Polar's EventTypeWithStats: a name of the organization's events with its counts (system names have no type). */
@ObjectType('EventTypeWithStats', { simpleResolvers: true })
export class EventTypeWithStatsType {
  @Field(() => ID, { nullable: true }) id!: string | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) createdAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field() name!: string;
  @Field() label!: string;
  @Field(() => String, { nullable: true }) labelPropertySelector!: string | null;
  @Field(() => ID) organizationId!: string;
  @Field() source!: string;
  @Field(() => Int) occurrences!: number;
  @Field(() => GraphQLISODateTime) firstSeen!: Date;
  @Field(() => GraphQLISODateTime) lastSeen!: Date;

  static fromRow(r: EventNameRow): EventTypeWithStatsType {
    return {
      id: r.type_id,
      createdAt: toDate(r.type_created_at),
      modifiedAt: toDate(r.type_modified_at),
      name: r.name,
      label: eventNameLabel(r),
      labelPropertySelector: r.label_property_selector,
      organizationId: r.organization_id,
      source: r.source,
      occurrences: r.occurrences,
      firstSeen: toDate(r.first_seen),
      lastSeen: toDate(r.last_seen),
    };
  }
}

/** A name's label: Polar's for a system event, the event type's for a user event. */
export function eventNameLabel(r: Pick<EventNameRow, 'source' | 'name' | 'type_label'>): string {
  return r.source === 'system' ? (SYSTEM_EVENT_LABELS[r.name] ?? r.name) : (r.type_label ?? r.name);
}

@ObjectType('EventTypeList', { simpleResolvers: true })
export class EventTypeList extends ListResource(EventTypeWithStatsType) {}
