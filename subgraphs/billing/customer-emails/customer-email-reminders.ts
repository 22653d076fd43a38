import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { OrganizationDirectory } from '../../identity/contract.js';
import { SavedPaymentMethodRepository } from '../payments/saved-payment-method.repository.js';
import { type DueWork, inBatches, type SweepableDueWorkRunner } from '../time/due-work.js';
import { type CustomerEmailKind, kindIsOn } from './customer-email-policy.js';
import { type CustomerEmailSender, queueCustomerEmail } from './customer-email-queue.js';
import { CustomerEmailReminderRepository, type ReminderRow } from './customer-email-reminder.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
type Payload = Record<string, any>;
type Plan = { anchor: Date; dueAt: Date } | null;

/**
 * Polar's reminder timing (its subscription and payment-method scans):
 * - renewal: 7 days before the period ends, for long cycles only (yearly; ≥ 6 months, ≥ 25 weeks,
 *   ≥ 180 days), an active paid subscription that is neither canceling nor pausing at its period end;
 * - trial conversion: 3 days before the trial ends (a trial of 3 days or more), 1 day before (1–3
 *   days), none for a shorter trial; trialing, paid, not canceling;
 * - card expiration: per card, as Polar's (one e-mail per card and expiry, naming every subscription it
 *   pays for): 20 days before the month the card expires in begins, while it pays for a subscription
 *   that requires a payment method.
 */
const LONG_CYCLE: Record<string, number> = { year: 1, month: 6, week: 25, day: 180 };
const CARD_REMINDER: CustomerEmailKind = 'payment_method_expiration_reminder';

function renewalPlan(p: Payload): Plan {
  const long = Number(p.recurring_interval_count ?? 1) >= (LONG_CYCLE[p.recurring_interval] ?? Infinity);
  if (p.status !== 'active' || p.cancel_at_period_end || p.pause_at_period_end || !long || !p.current_period_end)
    return null;
  const anchor = new Date(p.current_period_end);
  return { anchor, dueAt: new Date(anchor.getTime() - 7 * DAY_MS) };
}

function trialPlan(p: Payload): Plan {
  if (p.status !== 'trialing' || p.cancel_at_period_end || !p.trial_start || !p.trial_end) return null;
  const anchor = new Date(p.trial_end);
  const length = anchor.getTime() - new Date(p.trial_start).getTime();
  if (length < DAY_MS) return null;
  return { anchor, dueAt: new Date(anchor.getTime() - (length >= 3 * DAY_MS ? 3 : 1) * DAY_MS) };
}

function cardPlan(card: { expMonth: number | null; expYear: number | null }): Plan {
  if (!card.expMonth || !card.expYear) return null;
  const anchor = new Date(Date.UTC(card.expYear, card.expMonth - 1, 1));
  return { anchor, dueAt: new Date(anchor.getTime() - 20 * DAY_MS) };
}

/**
 * Moves a subscription's reminders to its state after a change (called by the customer-email recorder
 * for each of its events, in the change's transaction): each kind is kept at its anchor, or dropped when
 * the subscription no longer calls for it. The card reminder's subject is the customer's chargeable card:
 * kept while any of the customer's subscriptions requires a payment method. A reminder already sent for
 * an anchor is not sent again.
 */
export async function scheduleReminders(em: EntityManager, organizationId: string, p: Payload, at: Date) {
  const reminders = new CustomerEmailReminderRepository(em);
  const paid = Number(p.amount ?? 0) > 0;
  const plans: [CustomerEmailKind, string, Plan][] = [
    ['subscription_renewal_reminder', String(p.id), paid ? renewalPlan(p) : null],
    ['subscription_trial_conversion_reminder', String(p.id), paid ? trialPlan(p) : null],
  ];
  const methods = new SavedPaymentMethodRepository(em);
  const customerId = String(p.customer_id);
  // A free subscription's change says nothing of the card (a row it leaves behind is checked when due).
  const card = paid ? await methods.findChargeableOf(customerId) : null;
  if (card)
    plans.push([
      CARD_REMINDER,
      card.id,
      (await methods.hasSubscriptionRequiringPaymentMethod(customerId)) ? cardPlan(card) : null,
    ]);
  // The card's reminder says only who the customer is: what the card pays for is read when it is sent.
  const cardPayload = { customer_id: p.customer_id, customer: p.customer };
  for (const [kind, subjectId, plan] of plans) {
    if (!plan || plan.anchor.getTime() <= at.getTime()) await reminders.drop(kind, subjectId);
    else
      await reminders.upsert({
        kind,
        subject_id: subjectId,
        organization_id: organizationId,
        anchor: plan.anchor,
        due_at: plan.dueAt,
        payload: JSON.stringify(kind === CARD_REMINDER ? cardPayload : p),
      });
  }
}

const BATCH = 100;

/**
 * The reminders as due work (time/due-work.ts): the sandbox clock's advance sends them at the instant
 * they fall due by the organization's clock, the production sweep by the wall clock. Each batch is one
 * transaction (`inBatches`, as checkout expiry): the rows are locked, each e-mail queued under the
 * reminder's kind, subject and anchor, and the anchor marked sent, so two sweeps at once send it once.
 * Unlike expiry's, the claim is a row lock and a mark, not a state change: a reminder row stays (its next
 * anchor, the next period), and queueing an e-mail records no domain event, so it is not the write path's.
 * Identity's profile (name, switches) is read once per run, before any transaction opens.
 */
export class CustomerEmailReminders implements SweepableDueWorkRunner {
  readonly name = 'customer-email-reminders';
  readonly topic = 'billing.reminders';

  constructor(
    private readonly orm: MikroORM,
    private readonly sender: CustomerEmailSender,
    private readonly directory: OrganizationDirectory | null,
  ) {}

  nextDueAt(organizationId: string, upTo: Date): Promise<Date | null> {
    return this.repository(this.orm.em.fork()).nextDueOf(organizationId, upTo);
  }

  nextDueOverall(): Promise<Date | null> {
    return this.repository(this.orm.em.fork()).nextDueOverall();
  }

  organizationsDue(now: Date, limit: number): Promise<string[]> {
    return this.repository(this.orm.em.fork()).organizationsDue(now, limit);
  }

  async runDue(work: DueWork): Promise<void> {
    const organization = this.directory ? await this.directory.profile(work.organizationId) : null;
    await inBatches(BATCH, limit =>
      this.orm.em.fork().transactional(async em => {
        const reminders = this.repository(em);
        const due = await reminders.claimDue(work.organizationId, work.at, limit);
        for (const row of due) {
          if (organization) await this.send(em, row, organization, work.at);
          await reminders.markSent(row.kind, row.subject_id, row.anchor);
        }
        return due.length;
      }),
    );
  }

  private async send(
    em: EntityManager,
    row: ReminderRow,
    organization: { id: string; name: string; slug: string; customerEmailSettings: Record<string, boolean> },
    at: Date,
  ): Promise<void> {
    const kind = row.kind as CustomerEmailKind;
    // A reminder whose moment passed unseen (a sandbox clock moved past it) is late news: not sent.
    if (!kindIsOn(organization.customerEmailSettings, kind) || new Date(row.anchor).getTime() <= at.getTime()) return;
    const key = `reminder:${kind}:${row.subject_id}:${new Date(row.anchor).toISOString()}`;
    if (kind !== CARD_REMINDER) {
      await queueCustomerEmail(em, this.sender, { kind, key, organization, payload: row.payload, at });
      return;
    }
    // As Polar's: the card as it is now, and what it pays for now; nothing to say when it no longer pays
    // for anything, was removed or replaced as the one charged.
    const methods = new SavedPaymentMethodRepository(em);
    const card = await methods.findChargeableOf(String(row.payload.customer_id));
    const products = card?.id === row.subject_id ? await methods.productsRequiringPaymentMethod(card.customerId) : [];
    if (!card?.expMonth || !card.expYear || !products.length) return;
    await queueCustomerEmail(em, this.sender, {
      kind,
      key,
      organization,
      payload: { ...row.payload, products },
      card: { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear },
      at,
    });
  }

  private repository(em: EntityManager): CustomerEmailReminderRepository {
    return new CustomerEmailReminderRepository(em);
  }
}
