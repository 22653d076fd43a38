import { WebClient } from '../web/client.js';
import { EmailWorld, type Merchant } from './support/customer-emails.js';

/**
 * The sandbox's delivery rule and mail page (docs/email.md#sandbox): SMTP reaches only the
 * organization's members (`+alias` included); a message to anyone else is kept as `not_delivered` with
 * its reason, and every message, delivered or not, is on `/sandbox/emails` for a signed-in member, and
 * for no one else.
 */
jest.setTimeout(120_000);
const world = new EmailWorld();
let ann: Merchant;
let bob: Merchant;

beforeAll(async () => {
  await world.start('customer_emails_sandbox');
  ann = await world.merchant('Ann Sandbox');
  bob = await world.merchant('Bob Sandbox');
}, 120_000);
afterAll(() => world.close());

describe('the sandbox', () => {
  it('delivers to a member’s alias, keeps a stranger’s e-mail, and shows both to members only', async () => {
    const product = await ann.product({ name: 'Sandbox pack', prices: [{ amount_type: 'fixed', price_amount: 300 }] });
    const member = ann.alias('rehearsal');
    const stranger = `stranger-${Date.now()}@example.com`;
    await ann.buy(member, product);
    await ann.buy(stranger, product);
    await world.mail(member, 'Your Sandbox pack order confirmation');
    let kept: Record<string, any>[] = [];
    for (let i = 0; i < 100 && kept[0]?.status !== 'not_delivered'; i++) kept = await world.outbox(stranger);
    expect(kept).toMatchObject([
      {
        kind: 'order_confirmation',
        status: 'not_delivered',
        status_reason: 'sandbox: e-mail is only delivered to members of the organization',
      },
    ]);
    expect(world.inbox.to(stranger)).toEqual([]);

    const annBrowser = new WebClient(world.base);
    expect((await annBrowser.logIn(ann.owner.email, 'correct horse battery')).status).toBe(303);
    const pageOf = (client: WebClient) => client.get(`/sandbox/emails?organization_id=${ann.owner.organizationId}`);
    const shown = await pageOf(annBrowser);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain(`To ${stranger}`);
    expect(shown.text).toContain('Not delivered (sandbox: e-mail is only delivered to members of the organization)');
    expect(shown.text).toContain(`To ${member}`);
    expect(shown.text).toContain('Total: $3.00');

    // Another organization's member: nothing of Ann's.
    const bobBrowser = new WebClient(world.base);
    expect((await bobBrowser.logIn(bob.owner.email, 'correct horse battery')).status).toBe(303);
    const foreign = await pageOf(bobBrowser);
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain(stranger);
    // Signed out: to the sign-in.
    expect((await pageOf(new WebClient(world.base))).status).toBe(303);
    // The page is the sandbox's only.
    expect((await fetch(`${world.stack.production.baseUrl}/sandbox/emails`)).status).toBe(404);
  });
});
