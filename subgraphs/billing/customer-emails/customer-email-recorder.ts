import { ChangeSetType, type EntityManager, type EventSubscriber, type FlushEventArgs } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import { DomainEvent } from '../events/domain-event.entity.js';
import type { OutboxListener, RecordedEvent } from '../events/record-event.js';
import { enqueueCustomerEmail } from './customer-email.job.js';
import { CUSTOMER_EMAIL_EVENT_TYPES, customerEmailFor } from './customer-email-policy.js';
import { scheduleReminders } from './customer-email-reminders.js';
import { takePlanChange } from './plan-change-notes.js';

/**
 * Customer e-mails, written once, where every change already records its event (docs/email.md): after
 * each flush of billing's unit of work, the domain events it inserted into the outbox are read by the
 * policy (customer-email-policy.ts), and each one that calls for an e-mail enqueues its
 * `customer-email.compose` job (customer-email.job.ts) in the same transaction (a flush inside `runWrite`
 * or any `transactional` runs before its commit), under a key derived from the event's id. Only billing's
 * own rows are read here: the organization's switches and name are identity's, read by that job after
 * the commit. A subscription's events also move its reminders (customer-email-reminders.ts).
 */
export class CustomerEmailRecorder implements EventSubscriber, OutboxListener {
  /** `clock`: the job runner's (the job is due now by it, whatever instant a sandbox clock stamped the change with). */
  constructor(private readonly clock: Clock) {}

  async afterFlush({ em, uow }: FlushEventArgs): Promise<void> {
    const events: DomainEvent[] = [];
    for (const change of uow.getChangeSets())
      if (change.type === ChangeSetType.CREATE && change.entity instanceof DomainEvent) events.push(change.entity);
    await this.outboxRecorded(em as EntityManager, events);
  }

  /** The events one statement wrote without the unit of work (a renewal's, events/outbox.queries.ts). */
  async outboxRecorded(em: EntityManager, events: readonly RecordedEvent[]): Promise<void> {
    if (!events.length) return;
    for (const event of events) await this.record(em, event);
    // A change records several events of one subscription (updated, then its own kind): its reminders
    // follow the last one, once.
    const latest = new Map<string, RecordedEvent>();
    for (const event of events) if (event.type.startsWith('subscription.')) latest.set(String(event.payload.id), event);
    for (const event of latest.values())
      await scheduleReminders(em, event.organizationId, event.payload, event.createdAt);
  }

  private async record(em: EntityManager, event: RecordedEvent): Promise<void> {
    const { type, payload } = event;
    if (!CUSTOMER_EMAIL_EVENT_TYPES.has(type)) return;
    const planChanged = type === 'subscription.updated' && takePlanChange(em, String(payload.id));
    const kind = customerEmailFor(type, payload, planChanged);
    if (!kind) return;
    const intent = {
      kind,
      key: `event:${event.id}`,
      organizationId: event.organizationId,
      payload,
      at: event.createdAt,
    };
    await enqueueCustomerEmail(em, intent, this.clock.now());
  }
}
