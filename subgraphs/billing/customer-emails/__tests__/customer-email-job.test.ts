import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../../../kit/clock.js';
import type { EmailMessage, Mailer } from '../../../../kit/email/mailer.js';
import { startBillingAlone } from '../../../../test/support/billing-alone.js';
import type { OrganizationDirectory, OrganizationProfile } from '../../../identity/contract.js';
import { recordEvent } from '../../events/record-event.js';
import type { BillingRuntime } from '../../runtime.js';

/**
 * docs/email.md#customer-e-mails: the change's transaction records only the e-mail's intent (its job);
 * identity's profile (the seller's name and switches, an RPC when distributed) is read by that job after
 * the commit. An identity that is down holds back the e-mail, never the change; once it answers, the
 * e-mail is written and sent once; a kind switched off by then sends nothing.
 */
class Mailbox implements Mailer {
  readonly kind = 'smtp' as const;
  sent: EmailMessage[] = [];
  async send(message: EmailMessage): Promise<void> {
    this.sent.push(message);
  }
}

/** Identity's directory as billing sees it, with a switch for "identity is down" and a count of profile calls. */
class Directory implements OrganizationDirectory {
  down = false;
  calls = 0;
  switches: Record<string, boolean> = {};
  constructor(readonly organizationId: string) {}

  async profile(id: string): Promise<OrganizationProfile | null> {
    this.calls++;
    if (this.down) throw new Error('identity is unreachable');
    if (id !== this.organizationId) return null;
    return {
      id,
      name: 'Quiet Shop',
      slug: 'quiet-shop',
      avatarUrl: null,
      customerPortalSettings: {} as OrganizationProfile['customerPortalSettings'],
      customerEmailSettings: this.switches as OrganizationProfile['customerEmailSettings'],
      billing: {} as OrganizationProfile['billing'],
      features: { seatBasedPricingEnabled: false, memberModelEnabled: false, offSessionChargesEnabled: false },
      defaultPresentmentCurrency: 'usd',
      tax: {
        country: null,
        defaultTaxBehavior: 'location',
        legalName: null,
        legalAddress: null,
        taxId: null,
        registrations: [],
        stripeTaxEnabled: false,
      },
    };
  }
  async profileBySlug(): Promise<OrganizationProfile | null> {
    return null;
  }
  async recipients(): Promise<string[]> {
    return [];
  }
  async memberEmails(): Promise<string[]> {
    return [];
  }
}

const clock = new ManualClock(new Date('2027-05-04T10:00:00.000Z'));
const mailer = new Mailbox();
const directory = new Directory(randomUUID());
let billing: BillingRuntime;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ billing, close } = await startBillingAlone('customer_email_job', { clock, mailer, organizations: directory }));
});
afterAll(async () => {
  await close?.();
});

/** A change that records `subscription.uncanceled` for a customer, committed. */
async function uncancel(to: string): Promise<void> {
  const payload = {
    id: randomUUID(),
    status: 'active',
    amount: 0,
    currency: 'usd',
    customer_id: randomUUID(),
    customer: { email: to },
    product: { name: 'Plan' },
  };
  await billing.orm.em.fork().transactional(async em => {
    recordEvent(em, directory.organizationId, 'subscription.uncanceled', payload, clock.now());
    await em.flush();
  });
}

const outbox = (to: string) =>
  billing.orm.em.fork().execute('select kind, status from billing.outgoing_emails where to_address = ?', [to]);

describe('a customer e-mail and identity', () => {
  it('commits the change without asking identity, and sends once identity answers', async () => {
    directory.down = true;
    const calls = directory.calls;
    await uncancel('down@example.com');
    expect(directory.calls).toBe(calls);

    await billing.jobs.drain();
    expect(await outbox('down@example.com')).toEqual([]);

    directory.down = false;
    clock.advance(3_000); // the job queue's backoff after one failure is 2 s
    await billing.jobs.drain();
    await billing.jobs.drain();
    expect(await outbox('down@example.com')).toEqual([{ kind: 'subscription_uncanceled', status: 'sent' }]);
    expect(mailer.sent.filter(m => m.to === 'down@example.com').map(m => [m.subject, m.fromName])).toEqual([
      ['Your Plan subscription is uncanceled', 'Quiet Shop'],
    ]);
  });

  it('writes nothing for a kind the organization switched off', async () => {
    directory.switches = { subscription_uncanceled: false };
    await uncancel('off@example.com');
    await billing.jobs.drain();
    expect(await outbox('off@example.com')).toEqual([]);
    directory.switches = {};
  });
});
