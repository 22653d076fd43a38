import { ManualClock } from '../../../../kit/clock.js';
import type { EmailMessage, Mailer } from '../../../../kit/email/mailer.js';
import { startBillingAlone } from '../../../../test/support/billing-alone.js';
import type { BillingRuntime } from '../../runtime.js';
import { queueEmail } from '../email-outbox.js';

/**
 * The e-mail outbox on its own: a message exists only when its transaction commits, the `email.send` job
 * hands it to the mailer once, and a mailer that refuses leaves it pending with the attempt and the error
 * counted, until the last attempt marks it failed.
 */
class ScriptedMailer implements Mailer {
  readonly kind = 'smtp' as const;
  sent: EmailMessage[] = [];
  failures = 0;
  async send(message: EmailMessage): Promise<void> {
    if (this.failures > 0) {
      this.failures--;
      throw new Error('421 try again later');
    }
    this.sent.push(message);
  }
}

const clock = new ManualClock(new Date('2026-11-24T12:00:00.000Z'));
const mailer = new ScriptedMailer();
let billing: BillingRuntime;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ billing, close } = await startBillingAlone('email_outbox', { clock, mailer }));
});
afterAll(async () => {
  await close?.();
});

const rows = async (to: string) =>
  billing.orm.em.fork().execute('select * from billing.outgoing_emails where to_address = ?', [to]);

async function queue(to: string, rollback = false) {
  const em = billing.orm.em.fork();
  await em
    .transactional(async tx => {
      await queueEmail(tx, { kind: 'test', to, subject: 'Hello', text: 'Body' }, clock.now());
      if (rollback) throw new Error('rolled back');
    })
    .catch(error => {
      if (!rollback) throw error;
    });
}

describe('the e-mail outbox', () => {
  it('keeps nothing of a transaction that rolled back', async () => {
    await queue('rolled@example.com', true);
    expect(await rows('rolled@example.com')).toHaveLength(0);
    expect(await billing.jobs.drain()).toBe(0);
  });

  it('sends a committed message once, however often the worker runs', async () => {
    await queue('once@example.com');
    await billing.jobs.drain();
    await billing.jobs.drain();
    expect(mailer.sent.filter(m => m.to === 'once@example.com')).toEqual([
      { to: 'once@example.com', subject: 'Hello', text: 'Body', html: null },
    ]);
    expect(await rows('once@example.com')).toMatchObject([{ status: 'sent', attempts: 1, transport: 'smtp' }]);
  });

  it('retries a refused message with backoff, counting attempts, and marks it failed after the last', async () => {
    mailer.failures = 1;
    await queue('retry@example.com');
    await billing.jobs.drain();
    expect(await rows('retry@example.com')).toMatchObject([
      { status: 'pending', attempts: 1, last_error: '421 try again later' },
    ]);
    clock.advance(3_000); // the queue's backoff after one failure is 2 s
    await billing.jobs.drain();
    expect(await rows('retry@example.com')).toMatchObject([{ status: 'sent', attempts: 2, last_error: null }]);

    mailer.failures = 100;
    await queue('never@example.com');
    for (let i = 0; i < 8; i++) {
      await billing.jobs.drain();
      clock.advance(3_600_000);
    }
    expect(await rows('never@example.com')).toMatchObject([{ status: 'failed', attempts: 8 }]);
    mailer.failures = 0;
  });
});
