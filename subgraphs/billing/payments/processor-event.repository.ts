import type { EntityManager } from '@mikro-orm/postgresql';

/** `billing.processor_events`: which processor events were applied, in the applying transaction. */
export class ProcessorEventRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * Records the event as being applied; false when it was applied before (a concurrent duplicate waits
   * on the first one's row, then finds it).
   */
  async claim(eventId: string, type: string): Promise<boolean> {
    const [fresh] = await this.em.execute<{ id: string }[]>(
      `insert into billing.processor_events (id, type, outcome, received_at) values (?, ?, '', now())
           on conflict (id) do nothing returning id`,
      [eventId, type],
    );
    return fresh !== undefined;
  }

  async recordOutcome(eventId: string, outcome: string): Promise<void> {
    await this.em.execute('update billing.processor_events set outcome = ? where id = ?', [outcome, eventId]);
  }
}
