import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { systemClock } from '../../kit/clock.js';
import { loadConfig } from '../../kit/config.js';
import { createLogger } from '../../kit/logger.js';
import { ALL_SCOPES } from '../../kit/scopes.js';
import { startEnvironment } from '../../embedded/environment.js';
import { IdentityAdmin } from '../../subgraphs/identity/admin.js';
import { createTestDatabase } from '../support/database.js';
import { buildServer, freePort, killServers, query as queryOn, startServer } from '../support/embedded-server.js';
import { SmtpInbox } from '../support/smtp-inbox.js';
import { call, TEST_SECRET } from '../support/stack.js';

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
let buildDir: string;
let dataDir: string;
let databases: { url: string; drop: () => Promise<void> }[] = [];
let port: number;
let token: string;
let productId: string;

beforeAll(async () => {
  buildDir = buildServer('email-crash');
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'billing-email-crash-'));
  await chmod(dataDir, 0o755);
  databases = [await createTestDatabase('email_crash_production'), await createTestDatabase('email_crash_sandbox')];
  port = await freePort();
  const environment = await startEnvironment({
    name: 'sandbox',
    config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
    databaseUrl: databases[1].url,
    secret: TEST_SECRET,
    clock: systemClock,
    logger: createLogger('silent'),
  });
  const admin = new IdentityAdmin(environment.identity.orm, environment.identity.services, systemClock, TEST_SECRET);
  await admin.createUser('crash@example.com', 'correct horse battery');
  const organization = await admin.createOrganization(
    'crash@example.com',
    'Crash Co',
    `crash-${randomBytes(3).toString('hex')}`,
  );
  token = await admin.createOrganizationAccessToken(organization.id, [...ALL_SCOPES]);
  const server = environment.app.listen(0, '127.0.0.1');
  await new Promise(resolve => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  const product = await call(base, 'POST', '/v1/products/', {
    token,
    body: { name: 'Crash pack', prices: [{ amount_type: 'fixed', price_amount: 1500 }] },
  });
  productId = product.body.id;
  server.close();
  await environment.close();
});

afterAll(async () => {
  killServers();
  await inbox.close();
  for (const database of databases) await database.drop().catch(() => undefined);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (buildDir) await rm(buildDir, { recursive: true, force: true });
});

it('a process killed between the commit and the send: after restart one message reaches the SMTP server', async () => {
  const smtp = await inbox.start();
  const setup = { buildDir, dataDir, productionUrl: databases[0].url, sandboxUrl: databases[1].url, port };
  const base = `http://127.0.0.1:${port}`;
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
      databases[1].url,
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
