import type { MikroORM } from '@mikro-orm/postgresql';

export interface StreamedEvent {
  /** Ingestion order (a bigint as text). */
  position: string;
  id: string;
  type: string;
  /** The stored envelope bytes, as endpoints receive them. */
  payload: string;
}

/**
 * An organization's events in the order they were ingested (the order of its endpoints' queues), for
 * `cli listen`. Ingestion makes positions visible in the order they are drawn (event-ingest.ts), so a
 * cursor "after the last position read" never passes an event still being written.
 */
export class EventStream {
  constructor(private readonly orm: MikroORM) {}

  /** The position of the organization's newest event ('0' when it has none): listen starts after it. */
  async head(organizationId: string): Promise<string> {
    const [row] = await this.orm.em
      .fork()
      .execute<{ position: string | null }[]>(
        'select max(position)::text as position from webhooks.events where organization_id = ?',
        [organizationId],
      );
    return row?.position ?? '0';
  }

  async after(organizationId: string, position: string, limit = 100): Promise<StreamedEvent[]> {
    // Ordered by the column `e.position`: a bare `order by position` would sort the text alias, where
    // '10' comes before '9', and the cursor would go back to re-read what was just sent.
    return this.orm.em.fork().execute<StreamedEvent[]>(
      `select e.position::text as position, e.id, e.type, e.payload from webhooks.events e
          where e.organization_id = ? and e.position > ?::bigint order by e.position limit ?`,
      [organizationId, position, limit],
    );
  }
}
