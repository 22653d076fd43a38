import type { EntityManager } from '@mikro-orm/postgresql';

/** One event a change records in its subgraph's outbox (written by the change's own transaction). */
export interface OutboxEvent {
  organizationId: string;
  type: string;
  /** The wire body of the resource after the change (snake_case), or whatever the type carries. */
  payload: Record<string, unknown>;
  at?: Date;
}

/**
 * The events of a change: a list, or built once the change is flushed (a payload read from the database,
 * as the read path serves the resource, must see the change).
 */
export type ChangeEvents = readonly OutboxEvent[] | ((em: EntityManager) => Promise<readonly OutboxEvent[]>);

/** What a change answers: its result, and the events that describe it. */
export interface ChangeOutcome<T> {
  result: T;
  events?: ChangeEvents;
}

/** How a subgraph writes events into its outbox (in the unit of work of `em`). */
export type OutboxRecorder = (em: EntityManager, events: readonly OutboxEvent[]) => void;

/** Runs one change in one transaction; see `writeFrame`. */
export type RunWrite = <T>(em: EntityManager, change: (em: EntityManager) => Promise<ChangeOutcome<T>>) => Promise<T>;

/**
 * THE transaction frame of the write path, bound to a subgraph's outbox: `runWrite(em, change)` opens a
 * transaction on a fork of `em`, runs `change` (which loads what it changes with `loadForWrite`, locking
 * it), flushes the change, records the events it returns in the same transaction, flushes them and
 * commits. The row and its events are written together or not at all: an error anywhere rolls back both.
 */
export function writeFrame(record: OutboxRecorder | null): RunWrite {
  return <T>(em: EntityManager, change: (em: EntityManager) => Promise<ChangeOutcome<T>>) =>
    em.fork().transactional(async tx => {
      const { result, events } = await change(tx);
      await tx.flush();
      const recorded = typeof events === 'function' ? await events(tx) : (events ?? []);
      if (recorded.length) {
        if (!record) throw new Error('This subgraph has no outbox: its changes record no events.');
        record(tx, recorded);
        await tx.flush();
      }
      return result;
    });
}
