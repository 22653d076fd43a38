import type { MikroORM } from '@mikro-orm/postgresql';
import { type StreamedEvent, WebhookEventRepository } from './webhook-event.repository.js';

/**
 * An organization's events in the order they were ingested (the order of its endpoints' queues), for
 * `cli listen`. Ingestion makes positions visible in the order they are drawn (event-ingest.ts), so a
 * cursor "after the last position read" never passes an event still being written.
 */
export class EventStream {
  constructor(private readonly orm: MikroORM) {}

  /** The position of the organization's newest event ('0' when it has none): listen starts after it. */
  head(organizationId: string): Promise<string> {
    return new WebhookEventRepository(this.orm.em.fork()).headPosition(organizationId);
  }

  after(organizationId: string, position: string, limit = 100): Promise<StreamedEvent[]> {
    return new WebhookEventRepository(this.orm.em.fork()).eventsAfter(organizationId, position, limit);
  }
}
