import type { MikroORM } from '@mikro-orm/postgresql';
import type { SourceEvent, WebhookIngest } from './webhook-ingest.contract.js';
import { envelopeOf } from './event-envelope.js';
import { receiversOf } from './event-versions.js';
import { WebhookEventRepository } from './webhook-event.repository.js';

/**
 * Held by each ingestion transaction from before its first position is drawn until its commit, so
 * positions become visible in the order they were drawn: whoever sees an event also sees every event
 * of a lower position. A reader can then keep a plain "after this position" cursor (`cli listen`, see
 * event-stream.ts) and an endpoint's queue never gets an older event after a younger one was sent.
 * Producers' relays already hand over one batch at a time, but a batch whose RPC timed out can still
 * be running here when the relay's next batch arrives.
 */
const INGEST_LOCK = 'webhooks:ingest';

/**
 * The webhooks side of ingestion (see webhook-ingest.contract.ts). The envelope is serialised here,
 * once per API version among the endpoints it is queued for (event-envelope.ts): the unversioned
 * `{"type","timestamp","data"}` in `events.payload`, each version's in `event_bodies`. Those bytes are
 * what the endpoints of that version receive and what a redelivery sends again. `sequence` numbers the events of one object (`data.id`) in the
 * order they arrive, which is the producer's outbox order (its relay runs one batch at a time).
 */
export class InProcessWebhookIngest implements WebhookIngest {
  constructor(
    private readonly orm: MikroORM,
    /** Wakes an in-process worker when something was queued (sooner than the notification). */
    private readonly onQueued: () => void = () => undefined,
  ) {}

  async ingest(events: SourceEvent[]): Promise<{ ingested: number }> {
    if (events.length === 0) return { ingested: 0 };
    const ingested = await this.orm.em.fork().transactional(async em => {
      const webhookEvents = new WebhookEventRepository(em);
      await webhookEvents.lockIngestion(INGEST_LOCK);
      let count = 0;
      for (const event of events) {
        const objectId = typeof event.payload?.id === 'string' ? event.payload.id : null;
        const source = { type: event.type, timestamp: new Date(event.createdAt), data: event.payload };
        const stored = await webhookEvents.insertEvent(event, objectId, source.timestamp, envelopeOf(source, null));
        if (!stored) continue;
        count++;
        const versions = await webhookEvents.queueMessages(stored, event, receiversOf(event.type));
        for (const version of versions) await webhookEvents.insertBody(stored.id, version, envelopeOf(source, version));
      }
      // The messages' trigger notifies every worker on the database at commit (an in-process one is woken below).
      return count;
    });
    if (ingested > 0) this.onQueued();
    return { ingested };
  }
}
