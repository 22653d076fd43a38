import type { MikroORM } from '@mikro-orm/postgresql';

export interface StreamedEvent {
  /** Ingestion order (a bigint as text). */
  position: string;
  id: string;
  type: string;
  /** The stored envelope bytes, as endpoints receive them. */
  payload: string;
}

/** An organization's events in the order they were ingested, for `cli listen`. */
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
    return this.orm.em.fork().execute<StreamedEvent[]>(
      `select position::text as position, id, type, payload from webhooks.events
          where organization_id = ? and position > ?::bigint order by position limit ?`,
      [organizationId, position, limit],
    );
  }
}
