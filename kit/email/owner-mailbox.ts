import type { RpcContract } from '../http/signed-rpc.js';

/**
 * Owner notifications (a webhook endpoint disabled, a leaked token revoked) go through billing's e-mail
 * outbox (`billing.outgoing_emails`, the one durable mail queue): the caller names the owner and the
 * message, billing asks identity's directory for the owner's addresses and queues one message per
 * address. Queueing is idempotent by `key`: a producer that crashed after queueing and before recording
 * it hands the same key over again, and nothing is queued twice. Plain JSON in and out: in-process when
 * embedded, signed JSON RPC (`OWNER_MAILBOX_RPC`, served by the billing process) when distributed.
 */

/**
 * Whom a notification is for: a user (their own address), an organization (its owners and admins), or an
 * address of no user yet (`id` is the e-mail: an invitation to join an organization).
 */
export interface NotifiedOwner {
  type: 'user' | 'organization' | 'address';
  id: string;
}

export interface OwnerEmail {
  /** Unique per notification (`webhook-endpoint-disabled:<id>`); the same key again is a no-op. */
  key: string;
  /** What the message is (`webhook_endpoint_disabled`, `leaked_token_revoked`), kept on the outbox row. */
  kind: string;
  organizationId: string | null;
  owner: NotifiedOwner;
  subject: string;
  /** Plain text body. */
  text: string;
  /** When the message carries a one-time link: its expiry (ISO 8601), when the outbox blanks its bodies. */
  redactAt?: string | null;
}

export interface OwnerMailbox {
  /** Queues `email` to every address of its owner; answers how many (0: nobody to tell). */
  queue(email: OwnerEmail): Promise<{ recipients: number }>;
}

export const OWNER_MAILBOX_RPC: RpcContract<OwnerMailbox> = {
  prefix: '/internal/owner-emails',
  methods: { queue: true },
};
