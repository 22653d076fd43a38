import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { EventTypeFilterInput, EventTypeUpdateInput } from './event-type.inputs.js';
import { EventTypeList, EventTypeType } from './event-type.type.js';
import { EVENTS_READ, EVENTS_WRITE } from './usage-event.access.js';
import {
  EventBatch,
  EventCreateInput,
  EventListFilterInput,
  EventNameFilterInput,
  ingestBodyOf,
} from './usage-event.inputs.js';
import { EventNameList, EventsIngestResult, UsageEventList, UsageEventType } from './usage-event.type.js';

/** `/v1/events/` and `/v1/event-types/`: ingest, list, names, get; event types and their labels. */
@Resolver(() => UsageEventType)
export class UsageEventResolver {
  @Mutation(() => EventsIngestResult, { description: 'Ingests a batch of events: all of them, or none (422).' })
  async ingestEvents(
    @Ctx() ctx: BillingContext,
    @Arg('batch', () => EventBatch, { nullable: true }) batch: unknown,
    @Arg('events', () => [EventCreateInput], { nullable: true, deprecationReason: 'Use batch.' })
    events: EventCreateInput[] | null,
  ): Promise<EventsIngestResult> {
    authorize(ctx.principal, EVENTS_WRITE);
    return ctx.services.usageEvents.ingest(ctx, batch ?? (events ? ingestBodyOf(events) : undefined));
  }

  @Query(() => UsageEventList, { description: 'Events of the organizations the caller may act for.' })
  async events(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => EventListFilterInput, { nullable: true }) filter: EventListFilterInput | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true, description: 'timestamp; `-` = descending.' })
    sorting: string[] | null,
  ): Promise<UsageEventList> {
    authorize(ctx.principal, EVENTS_READ);
    return ctx.services.usageEvents.list(ctx, filter, { page, limit, sorting });
  }

  @Query(() => UsageEventType)
  async event(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<UsageEventType> {
    authorize(ctx.principal, EVENTS_READ);
    return ctx.services.usageEvents.get(ctx, id);
  }

  @Query(() => EventNameList, { description: "Names of the organizations' events with their counts." })
  async eventNames(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => EventNameFilterInput, { nullable: true }) filter: EventNameFilterInput | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<EventNameList> {
    authorize(ctx.principal, EVENTS_READ);
    return ctx.services.usageEvents.names(ctx, filter, { page, limit, sorting });
  }

  @Query(() => EventTypeList, { description: 'Event types with their counts.' })
  async eventTypes(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => EventTypeFilterInput, { nullable: true }) filter: EventTypeFilterInput | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<EventTypeList> {
    authorize(ctx.principal, EVENTS_READ);
    return ctx.services.eventTypes.list(ctx, filter, { page, limit, sorting });
  }

  @Mutation(() => EventTypeType)
  async updateEventType(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input') input: EventTypeUpdateInput,
  ): Promise<EventTypeType> {
    authorize(ctx.principal, EVENTS_WRITE);
    return ctx.services.eventTypes.update(ctx, id, input);
  }
}
