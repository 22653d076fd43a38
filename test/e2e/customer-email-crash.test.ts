import { type PreparedServer, prepareServer, seedCrashMerchant } from '../support/crash-server.js';
import { query as queryOn, startServer } from '../support/embedded-server.js';
import { SmtpInbox } from '../support/smtp-inbox.js';
import { call } from '../support/stack.js';

/**
 * docs/email.md#delivery: a customer e-mail is sent once even when the process dies between the
 * commit that queued it and its hand-over to SMTP. The built server runs as a child process with
 * `FAULT_INJECTION_EXIT_AT=email.before-send`, which makes it exit (as a `kill -9` there would) when the
 * `email.send` job has claimed the order confirmation. Restarted without the fault, a job worker takes the
 * job over once the dead worker's lease ends, and the local SMTP server receives exactly one message.
 */
jest.setTimeout(240_000);

const inbox = new SmtpInbox();
const buyer = 'crash+buyer@example.com';
let prepared: PreparedServer;
let token: string;
let productId: string;

beforeAll(async () => {
  prepared = await prepareServer('email-crash');
  ({ token, productId } = await seedCrashMerchant(prepared.setup.sandboxUrl, {
    name: 'Crash pack',
    prices: [{ amount_type: 'fixed', price_amount: 1500 }],
  }));
});

afterAll(async () => {
  await prepared?.remove();
  await inbox.close();
});

it('a process killed between the commit and the send: after restart one message reaches the SMTP server', async () => {
  const smtp = await inbox.start();
  const { setup } = prepared;
  const base = `http://127.0.0.1:${setup.port}`;
  const crashing = startServer(setup, { SMTP_URL: smtp, FAULT_INJECTION_EXIT_AT: 'email.before-send' });
  await crashing.ready;
  const checkout = await call(base, 'POST', '/v1/checkouts/', {
    token,
    body: { products: [productId], customer_email: buyer },
  });
  expect(checkout.status).toBe(201);
  // The answer may or may not come: the process exits when the e-mail job runs, right after the sale.
  await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
    body: { confirmation_token_id: 'pm_card_visa' },
  }).catch(() => undefined);
  expect(await crashing.exited).toBe(86);

  // The sale and its e-mail committed; nothing was sent.
  const outbox = () =>
    queryOn<{ status: string; subject: string }>(
      setup.sandboxUrl,
      'select status, subject from billing.outgoing_emails where to_address = $1',
      [buyer],
    );
  expect(await outbox()).toEqual([{ status: 'pending', subject: 'Your Crash pack order confirmation' }]);
  expect(inbox.messages).toHaveLength(0);

  const restarted = startServer(setup, { SMTP_URL: smtp });
  await restarted.ready;
  const deadline = Date.now() + 120_000;
  while ((await outbox())[0]?.status !== 'sent' && Date.now() < deadline) await new Promise(r => setTimeout(r, 500));
  expect(await outbox()).toEqual([{ status: 'sent', subject: 'Your Crash pack order confirmation' }]);
  expect(inbox.to(buyer).map(m => m.mail.subject)).toEqual(['Your Crash pack order confirmation']);
  restarted.child.kill('SIGTERM');
  await restarted.exited;
});
