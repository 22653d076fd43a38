import type { MikroORM } from '@mikro-orm/postgresql';
import type { OwnerEmail, OwnerMailbox } from '../../../kit/email/owner-mailbox.js';
import type { Logger } from '../../../kit/logger.js';
import { PollingLoop } from '../../../kit/polling-loop.js';
import { WEBHOOK_TIMEOUT_MS } from '../worker/delivery-sender.js';

const POLL_MS = 2000;

export const ENDPOINT_DISABLED_EMAIL = 'webhook_endpoint_disabled';

interface NotificationRow {
  id: string;
  organization_id: string;
  endpoint_id: string;
  kind: string;
  message: string;
  created_at: Date;
  url: string | null;
}

/**
 * E-mails owner notifications (`webhooks.notifications`, written in the transaction that disabled the
 * endpoint) to the organization's owners and admins through the e-mail outbox (kit/email/owner-mailbox.ts,
 * billing's `outgoing_emails`). Each notification is handed over in its own transaction: lock it (SKIP
 * LOCKED: two relays never take the same one), queue it under its own key, set `emailed_at`, commit. A
 * crash before the commit hands it over again and the outbox, idempotent by key, queues nothing more:
 * the disabled endpoint's e-mail exists once per recipient, whichever process (an embedded worker, a
 * separate worker.js) disabled it.
 */
export class NotificationRelay {
  private readonly loop: PollingLoop;

  constructor(
    private readonly orm: MikroORM,
    private readonly mailbox: OwnerMailbox,
    private readonly logger: Logger,
    pollMs = POLL_MS,
  ) {
    this.loop = new PollingLoop(
      {
        // relayOnce drains what is waiting: the next pass waits for the poll or a wake.
        run: async () => {
          await this.relayOnce();
          return false;
        },
        // The identity or billing process may be down: the row stays and is handed over at the next poll.
        failed: error => this.logger.error({ err: error }, 'owner notification relay failed; retrying'),
      },
      pollMs,
      pollMs,
    );
  }

  start(): void {
    this.loop.start();
  }

  /** A notification was just written: hand it over now rather than at the next poll. */
  wake(): void {
    this.loop.wake();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Hands over the notifications not e-mailed yet, one transaction each; answers how many. */
  async relayOnce(): Promise<number> {
    let relayed = 0;
    for (;;) {
      const done = await this.orm.em.fork().transactional(async em => {
        const [row] = await em.execute<NotificationRow[]>(
          `select n.id, n.organization_id, n.endpoint_id, n.kind, n.message, n.created_at, e.url
             from webhooks.notifications n left join webhooks.endpoints e on e.id = n.endpoint_id
            where n.emailed_at is null order by n.created_at, n.id limit 1 for update of n skip locked`,
        );
        if (!row) return false;
        const { recipients } = await this.mailbox.queue(endpointDisabledEmail(row));
        if (recipients === 0)
          this.logger.warn(
            { organizationId: row.organization_id, endpointId: row.endpoint_id },
            'webhook endpoint disabled, but its organization has nobody to e-mail',
          );
        await em.execute('update webhooks.notifications set emailed_at = now() where id = ?', [row.id]);
        return true;
      });
      if (!done) return relayed;
      relayed++;
    }
  }
}

/** Which endpoint (url and id), why, and how to re-enable it and get the events it missed. */
export function endpointDisabledEmail(row: NotificationRow): OwnerEmail {
  const url = row.url ?? '(deleted endpoint)';
  const at = new Date(row.created_at).toISOString();
  return {
    key: `webhook-notification:${row.id}`,
    kind: ENDPOINT_DISABLED_EMAIL,
    organizationId: row.organization_id,
    owner: { type: 'organization', id: row.organization_id },
    subject: `Webhook endpoint disabled: ${url}`,
    text: [
      `Your webhook endpoint ${url} (id ${row.endpoint_id}) was disabled at ${at}.`,
      '',
      `Why: ${row.message} An event fails after its last retry; an attempt fails when the endpoint does`,
      `not answer 2xx within ${WEBHOOK_TIMEOUT_MS / 1000} seconds (redirects are not followed).`,
      'While the endpoint is disabled, no event is sent to it; the events it was waiting for are kept as skipped.',
      '',
      'To re-enable it, fix the receiver, then:',
      `  PATCH /v1/webhooks/endpoints/${row.endpoint_id}   {"enabled": true}`,
      'and send again the events it missed:',
      `  POST /v1/webhooks/events/redeliver   {"endpoint_id": "${row.endpoint_id}"}`,
    ].join('\n'),
  };
}
