import type { OwnerEmail } from '../../../kit/email/owner-mailbox.js';
import { WEBHOOK_TIMEOUT_MS } from '../worker/delivery-sender.js';

export const ENDPOINT_DISABLED_EMAIL = 'webhook_endpoint_disabled';

/** The disabled endpoint, as the disable's transaction knows it (its `webhooks.notifications` row). */
export interface DisabledEndpoint {
  /** The notification's id: the e-mail's key, so one disable is one e-mail per recipient. */
  id: string;
  organization_id: string;
  endpoint_id: string;
  message: string;
  created_at: Date;
  url: string | null;
}

/** Which endpoint (url and id), why, and how to re-enable it and get the events it missed. */
export function endpointDisabledEmail(row: DisabledEndpoint): OwnerEmail {
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
