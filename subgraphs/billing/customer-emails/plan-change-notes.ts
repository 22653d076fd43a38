import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * A product change that is not invoiced now records only `subscription.updated`, as every other change
 * of a subscription does; the customer e-mail policy needs to know it was a plan change (Polar sends
 * "Your subscription has changed to …" then). The change notes it on its transaction's entity manager;
 * the customer-email recorder reads the note when the event is flushed. Nothing is persisted.
 */
const notes = new WeakMap<EntityManager, Set<string>>();

export function notePlanChange(em: EntityManager, subscriptionId: string): void {
  const noted = notes.get(em) ?? new Set<string>();
  noted.add(subscriptionId);
  notes.set(em, noted);
}

/** Whether this transaction changed the subscription's plan (the note is read once). */
export function takePlanChange(em: EntityManager, subscriptionId: string): boolean {
  return notes.get(em)?.delete(subscriptionId) ?? false;
}
