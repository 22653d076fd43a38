import type { EntityManager } from '@mikro-orm/postgresql';

/** A reminder as it is kept: its subject's latest state, when it is due, and the anchor it was last sent for. */
export interface ReminderRow {
  kind: string;
  subject_id: string;
  organization_id: string;
  anchor: Date;
  due_at: Date;
  payload: Record<string, any>;
}

/** The statements of `billing.customer_email_reminders` (customer-email-reminders.ts). */
export class CustomerEmailReminderRepository {
  constructor(private readonly em: EntityManager) {}

  /** Keeps the reminder of this kind and subject at its new anchor (a reminder already sent for it stays sent). */
  async upsert(r: Omit<ReminderRow, 'payload'> & { payload: string }): Promise<void> {
    await this.em.execute(
      `insert into billing.customer_email_reminders (kind, subject_id, organization_id, anchor, due_at, payload)
         values (?, ?, ?, ?, ?, ?::jsonb)
       on conflict (kind, subject_id) do update set anchor = excluded.anchor, due_at = excluded.due_at, payload = excluded.payload`,
      [r.kind, r.subject_id, r.organization_id, r.anchor, r.due_at, r.payload],
    );
  }

  async drop(kind: string, subjectId: string): Promise<void> {
    await this.em.execute('delete from billing.customer_email_reminders where kind = ? and subject_id = ?', [
      kind,
      subjectId,
    ]);
  }

  /** The organization's reminders due by `at` and not yet sent for their anchor, locked for this transaction. */
  claimDue(organizationId: string, at: Date, limit: number): Promise<ReminderRow[]> {
    return this.em.execute<ReminderRow[]>(
      `select kind, subject_id, organization_id, anchor, due_at, payload from billing.customer_email_reminders
        where organization_id = ? and due_at <= ? and sent_anchor is distinct from anchor
        order by due_at limit ? for update skip locked`,
      [organizationId, at, limit],
    );
  }

  async markSent(kind: string, subjectId: string, anchor: Date): Promise<void> {
    await this.em.execute(
      'update billing.customer_email_reminders set sent_anchor = ? where kind = ? and subject_id = ?',
      [anchor, kind, subjectId],
    );
  }

  async nextDueOf(organizationId: string, upTo: Date): Promise<Date | null> {
    const [row] = await this.em.execute<{ at: Date | null }[]>(
      `select min(due_at) as at from billing.customer_email_reminders
        where organization_id = ? and due_at <= ? and sent_anchor is distinct from anchor`,
      [organizationId, upTo],
    );
    return row?.at ? new Date(row.at) : null;
  }

  async nextDueOverall(): Promise<Date | null> {
    const [row] = await this.em.execute<{ at: Date | null }[]>(
      'select min(due_at) as at from billing.customer_email_reminders where sent_anchor is distinct from anchor',
    );
    return row?.at ? new Date(row.at) : null;
  }

  async organizationsDue(now: Date, limit: number): Promise<string[]> {
    const rows = await this.em.execute<{ organization_id: string }[]>(
      `select distinct organization_id from billing.customer_email_reminders
        where due_at <= ? and sent_anchor is distinct from anchor limit ?`,
      [now, limit],
    );
    return rows.map(r => r.organization_id);
  }
}
