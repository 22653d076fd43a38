import { ChangeSetType, type EntityManager, type EventSubscriber, type FlushEventArgs } from '@mikro-orm/postgresql';
import type { OrganizationDirectory, OrganizationProfile } from '../../identity/contract.js';
import { DomainEvent } from '../events/domain-event.entity.js';
import type { OutboxListener, RecordedEvent } from '../events/record-event.js';
import { enqueueConfirmationEmail } from './confirmation-email.job.js';
import { CUSTOMER_EMAIL_EVENT_TYPES, customerEmailFor, kindIsOn } from './customer-email-policy.js';
import { type CustomerEmailSender, queueCustomerEmail } from './customer-email-queue.js';
import { scheduleReminders } from './customer-email-reminders.js';
import { takePlanChange } from './plan-change-notes.js';

const CONFIRMATIONS = new Set(['order_confirmation', 'subscription_confirmation']);

/**
 * Customer e-mails, written once, where every change already records its event (docs/email.md): after
 * each flush of billing's unit of work, the domain events it inserted into the outbox are read by the
 * policy (customer-email-policy.ts) against the organization's `customer_email_settings`, and each one
 * that calls for an e-mail queues it (a purchase's confirmation: the job that queues it once the grants
 * are made, confirmation-email.job.ts) in the same transaction (a flush inside `runWrite` or any
 * `transactional` runs before its commit), under a key derived from the event's id. A subscription's
 * events also move its reminders (customer-email-reminders.ts). A kind switched off queues nothing.
 */
export class CustomerEmailRecorder implements EventSubscriber, OutboxListener {
  constructor(
    private readonly deps: CustomerEmailSender & {
      /** Identity's profiles (the settings and the seller's name); null: no customer e-mail at all. */
      directory: OrganizationDirectory | null;
    },
  ) {}

  async afterFlush({ em, uow }: FlushEventArgs): Promise<void> {
    const events: DomainEvent[] = [];
    for (const change of uow.getChangeSets())
      if (change.type === ChangeSetType.CREATE && change.entity instanceof DomainEvent) events.push(change.entity);
    await this.outboxRecorded(em as EntityManager, events);
  }

  /** The events one statement wrote without the unit of work (a renewal's, events/outbox.queries.ts). */
  async outboxRecorded(em: EntityManager, events: readonly RecordedEvent[]): Promise<void> {
    if (!events.length || !this.deps.directory) return;
    const profiles = new Map<string, Promise<OrganizationProfile | null>>();
    const profileOf = (id: string) => {
      if (!profiles.has(id)) profiles.set(id, this.deps.directory!.profile(id));
      return profiles.get(id)!;
    };
    for (const event of events) await this.record(em, event, profileOf);
    // A change records several events of one subscription (updated, then its own kind): its reminders
    // follow the last one, once.
    const latest = new Map<string, RecordedEvent>();
    for (const event of events) if (event.type.startsWith('subscription.')) latest.set(String(event.payload.id), event);
    for (const event of latest.values())
      await scheduleReminders(em, event.organizationId, event.payload, event.createdAt);
  }

  private async record(
    em: EntityManager,
    event: RecordedEvent,
    profileOf: (id: string) => Promise<OrganizationProfile | null>,
  ): Promise<void> {
    const { type, payload } = event;
    if (!CUSTOMER_EMAIL_EVENT_TYPES.has(type)) return;
    const planChanged = type === 'subscription.updated' && takePlanChange(em, String(payload.id));
    const kind = customerEmailFor(type, payload, planChanged);
    if (!kind) return;
    const organization = await profileOf(event.organizationId);
    if (!organization || !kindIsOn(organization.customerEmailSettings, kind)) return;
    const order = { kind, key: `event:${event.id}`, organization, payload, at: event.createdAt };
    // A purchase's confirmation names what its grants hold: queued by a job after they are made.
    if (CONFIRMATIONS.has(kind)) await enqueueConfirmationEmail(em, order, this.deps.clock.now());
    else await queueCustomerEmail(em, this.deps, order);
  }
}
