import { randomUUID } from 'node:crypto';
import { createLogger } from '../../kit/logger.js';
import type { OwnerEmail, OwnerMailbox } from '../../kit/email/owner-mailbox.js';
import { MemberRole } from '../../subgraphs/identity/memberships/membership.entity.js';
import { OwnerNoticeRelay, recordOwnerNotice } from '../../kit/email/owner-notices.js';
import { endpointDisabledEmail } from '../../subgraphs/webhooks/notifications/endpoint-disabled.email.js';
import {
  createTenant,
  type RunningEnvironment,
  startTestStack,
  type Tenant,
  type TestStack,
} from '../support/stack.js';

/**
 * The e-mail to the owners of a disabled webhook endpoint is queued once per recipient even when the
 * relay handing it over fails between queueing it in billing's outbox and recording that it did: the
 * owner notice (written with the disable, kit/email/owner-notices.ts) stays un-e-mailed, is handed over
 * again, and the outbox, idempotent by the notice's key, adds nothing. The disable itself through real deliveries is
 * in webhooks.e2e.test.ts.
 */
let stack: TestStack;
let sandbox: RunningEnvironment;
let tenant: Tenant;
let admin: string;

beforeAll(async () => {
  stack = await startTestStack('endpoint_disabled_email');
  sandbox = stack.sandbox;
  tenant = await createTenant(sandbox);
  admin = `admin-${randomUUID()}@example.com`;
  await sandbox.admin.createUser(admin, 'correct horse battery');
  await sandbox.admin.addMember(tenant.organizationId, admin, MemberRole.ADMIN);
  const member = `member-${randomUUID()}@example.com`;
  await sandbox.admin.createUser(member, 'correct horse battery');
  await sandbox.admin.addMember(tenant.organizationId, member, MemberRole.MEMBER);
}, 120_000);
afterAll(() => stack?.close(), 60_000);

const sql = <T>(env: RunningEnvironment, query: string, params: unknown[] = []) =>
  env.environment.webhooks.orm.em.fork().execute<T[]>(query, params);

/** A disabled endpoint and its owners' e-mail, as the delivery queue's disable writes them. */
async function disabledEndpoint(url: string): Promise<{ endpointId: string; noticeKey: string }> {
  const endpointId = randomUUID();
  await sql(
    sandbox,
    `insert into webhooks.endpoints (id, organization_id, url, format, secret, events, enabled, created_at)
     values (?, ?, ?, 'raw', 'whsec_test', '{customer.created}', false, now())`,
    [endpointId, tenant.organizationId, url],
  );
  const email = endpointDisabledEmail({
    id: randomUUID(),
    organization_id: tenant.organizationId,
    endpoint_id: endpointId,
    message: `Webhook endpoint ${url} was disabled: its last 10 events all failed.`,
    created_at: new Date(),
    url,
  });
  await recordOwnerNotice(sandbox.environment.webhooks.orm.em.fork(), 'webhooks', email);
  return { endpointId, noticeKey: email.key };
}

const emails = (endpointId: string) =>
  sandbox.environment.billing.orm.em
    .fork()
    .execute<{ to_address: string; subject: string; text_body: string; status: string; organization_id: string }[]>(
      `select to_address, subject, text_body, status, organization_id from billing.outgoing_emails
        where kind = 'webhook_endpoint_disabled' and text_body like ? order by to_address`,
      [`%${endpointId}%`],
    );

/** Queues in the real outbox, then dies before the relay records the hand-over. */
class CrashAfterQueue implements OwnerMailbox {
  constructor(private readonly inner: OwnerMailbox) {}
  async queue(email: OwnerEmail): Promise<{ recipients: number }> {
    await this.inner.queue(email);
    throw new Error('process killed after queueing');
  }
}

it('a relay killed after queueing hands over again and the outbox still holds one e-mail per owner and admin', async () => {
  // The stack's own relay would hand it over first; this one runs against the same rows on purpose.
  await sandbox.environment.webhooks.notifications?.stop();
  const { endpointId, noticeKey } = await disabledEndpoint('https://hooks.example.com/dead');
  const logger = createLogger('silent');
  const mailbox = sandbox.environment.billing.ownerMailbox;
  const relay = new OwnerNoticeRelay(sandbox.environment.webhooks.orm, 'webhooks', logger);

  relay.use(new CrashAfterQueue(mailbox));
  await expect(relay.relayOnce()).rejects.toThrow('process killed after queueing');
  const notice = () =>
    sql<{ emailed_at: Date | null }>(sandbox, 'select emailed_at from webhooks.owner_notices where key = ?', [
      noticeKey,
    ]);
  expect(await notice()).toEqual([{ emailed_at: null }]);
  expect((await emails(endpointId)).map(e => e.to_address)).toEqual([admin, tenant.email].sort());

  relay.use(mailbox);
  expect([...(await relay.relayOnce()).keys()]).toEqual([noticeKey]);
  expect((await relay.relayOnce()).size).toBe(0);

  const sent = await emails(endpointId);
  // The owner and the admin, once each; the plain member is not told.
  expect(sent.map(e => e.to_address)).toEqual([admin, tenant.email].sort());
  for (const email of sent) {
    expect(email.organization_id).toBe(tenant.organizationId);
    expect(email.subject).toBe('Webhook endpoint disabled: https://hooks.example.com/dead');
    expect(email.text_body).toContain('its last 10 events all failed');
    expect(email.text_body).toContain(`PATCH /v1/webhooks/endpoints/${endpointId}   {"enabled": true}`);
    expect(email.text_body).toContain('POST /v1/webhooks/events/redeliver');
  }
  expect((await notice())[0].emailed_at).not.toBeNull();
});
