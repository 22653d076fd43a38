import type { EntityManager } from '@mikro-orm/postgresql';
import { type ApiVersion, isApiVersion } from '../../../kit/api-versions.js';
import type { SourceEvent } from './webhook-ingest.contract.js';

/** An event as the stream serves it (see event-stream.ts). */
export interface StreamedEvent {
  /** Ingestion order (a bigint as text). */
  position: string;
  id: string;
  type: string;
  /** The stored envelope bytes, as endpoints receive them. */
  payload: string;
}

/** The SQL of ingested webhook events and the messages queued for them (event-ingest.ts, event-stream.ts). */
export class WebhookEventRepository {
  constructor(private readonly em: EntityManager) {}

  /** Takes the transaction-scoped advisory lock `key` (held until commit; see event-ingest.ts's INGEST_LOCK). */
  async lockIngestion(key: string): Promise<void> {
    await this.em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [key]);
  }

  /**
   * Stores one event with its envelope `body`, numbered after the object's previous events; `null` when
   * the source event was ingested already (a relay's retry).
   */
  async insertEvent(
    event: SourceEvent,
    objectId: string | null,
    timestamp: Date,
    body: string,
  ): Promise<{ id: string; position: string } | null> {
    const rows = await this.em.execute<{ id: string; position: string }[]>(
      `insert into webhooks.events (id, source_event_id, organization_id, type, object_id, sequence, timestamp, payload, created_at)
       select gen_random_uuid(), ?, ?, ?, ?::text,
              coalesce((select max(sequence) from webhooks.events where object_id = ?::text), 0) + 1, ?, ?, now()
       on conflict (source_event_id) do nothing
       returning id, position`,
      [event.id, event.organizationId, event.type, objectId, objectId, timestamp, body],
    );
    return rows[0] ?? null;
  }

  /**
   * Queues the event for every enabled, live endpoint of its organization subscribed to its type whose
   * API version knows the type (`receivers`, event-versions.ts), each message with that version.
   * Answers the versions queued for, whose envelopes the caller stores (`insertBody`).
   */
  async queueMessages(
    stored: { id: string; position: string },
    event: SourceEvent,
    receivers: { unversioned: boolean; versions: readonly ApiVersion[] },
  ): Promise<ApiVersion[]> {
    const rows = await this.em.execute<{ api_version: string | null }[]>(
      `insert into webhooks.messages (id, event_id, endpoint_id, organization_id, event_position, status, attempts, next_attempt_at, created_at, api_version)
       select gen_random_uuid(), ?, e.id, e.organization_id, ?, 'pending', 0, now(), now(), e.api_version
       from webhooks.endpoints e
       where e.organization_id = ? and e.enabled and e.deleted_at is null and ? = any(e.events)
         and case when e.api_version is null then ?::boolean else e.api_version = any(?::text[]) end
       on conflict (event_id, endpoint_id) do nothing
       returning api_version`,
      [
        stored.id,
        stored.position,
        event.organizationId,
        event.type,
        receivers.unversioned,
        `{${receivers.versions.join(',')}}`,
      ],
    );
    return [...new Set(rows.map(r => r.api_version))].filter(isApiVersion);
  }

  /** The event's envelope for the endpoints of `version`. */
  async insertBody(eventId: string, version: ApiVersion, body: string): Promise<void> {
    await this.em.execute(
      'insert into webhooks.event_bodies (event_id, api_version, body) values (?, ?, ?) on conflict do nothing',
      [eventId, version, body],
    );
  }

  /** The position of the organization's newest event ('0' when it has none). */
  async headPosition(organizationId: string): Promise<string> {
    const [row] = await this.em.execute<{ position: string | null }[]>(
      'select max(position)::text as position from webhooks.events where organization_id = ?',
      [organizationId],
    );
    return row?.position ?? '0';
  }

  /** The organization's events after `position`, in ingestion order. */
  eventsAfter(organizationId: string, position: string, limit: number): Promise<StreamedEvent[]> {
    // Ordered by the column `e.position`: a bare `order by position` would sort the text alias, where
    // '10' comes before '9', and the cursor would go back to re-read what was just sent.
    return this.em.execute<StreamedEvent[]>(
      `select e.position::text as position, e.id, e.type, e.payload from webhooks.events e
          where e.organization_id = ? and e.position > ?::bigint order by e.position limit ?`,
      [organizationId, position, limit],
    );
  }
}
