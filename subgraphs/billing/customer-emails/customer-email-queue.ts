import { randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import { hashToken } from '../../../kit/tokens.js';
import { CustomerSessionRepository } from '../customer-sessions/customer-session.repository.js';
import { outboxIdOf, queueEmail } from '../emails/email-outbox.js';
import { type EmailFacts, type EmailLinks, renderCustomerEmail } from './customer-email-content.js';
import type { CustomerEmailKind } from './customer-email-policy.js';
import { EMAIL_LINK_PARAM, EMAIL_LINK_PREFIX, EMAIL_LINK_TTL_MS } from './email-link.js';
import type { PurchasedBenefits } from './purchased-benefits.repository.js';

export interface CustomerEmailSender {
  secret: string;
  publicUrl: string;
  /** The job runner's clock: an e-mail is sent now by it, whatever instant a sandbox clock stamped the change with. */
  clock: Clock;
}

export interface CustomerEmailOrder {
  kind: CustomerEmailKind;
  /** What makes this e-mail unique (an event id, a reminder and its anchor): the outbox row id is its digest. */
  key: string;
  organization: { id: string; name: string; slug: string };
  /** The order's or subscription's wire body (as its event carries it). */
  payload: Record<string, any>;
  card?: EmailFacts['card'];
  /** The license keys and files the purchase's grants hold (confirmations, customer-email.job.ts). */
  purchased?: PurchasedBenefits;
  /** The instant of the change (the organization's clock). */
  at: Date;
}

/**
 * Queues one customer e-mail in the caller's transaction: a one-time portal token for the recipient
 * (stored as its HMAC, in the sign-in codes' table: spent once by the authenticate route, expired after
 * `EMAIL_LINK_TTL_MS`), the rendered message and its `email.send` job. The row id is a digest of the key,
 * so the same change queued twice is one e-mail. The bodies are blanked when the link expires.
 */
export async function queueCustomerEmail(em: EntityManager, sender: CustomerEmailSender, o: CustomerEmailOrder) {
  const to = o.payload.customer?.email;
  const customerId = o.payload.customer_id ?? o.payload.customer?.id;
  if (!to || !customerId) return;
  const token = `${EMAIL_LINK_PREFIX}${randomBytes(32).toString('base64url')}`;
  const expiresAt = new Date(o.at.getTime() + EMAIL_LINK_TTL_MS);
  await new CustomerSessionRepository(em).insertCode({
    id: randomUUID(),
    customerId,
    organizationId: o.organization.id,
    email: to,
    codeHash: hashToken(token, sender.secret),
    expiresAt,
    createdAt: o.at,
  });
  const links = linksOf(sender.publicUrl, o, token);
  const rendered = renderCustomerEmail({
    kind: o.kind,
    organizationName: o.organization.name,
    payload: o.payload,
    links,
    card: o.card,
    purchased: o.purchased,
  });
  await queueEmail(
    em,
    {
      id: outboxIdOf(`customer-email\n${o.key}`),
      kind: o.kind,
      organizationId: o.organization.id,
      to,
      fromName: o.organization.name,
      redactAt: expiresAt,
      ...rendered,
    },
    o.at,
    sender.clock.now(),
  );
}

/** The portal pages the e-mail points at, each signed in by the same one-time token. */
function linksOf(publicUrl: string, o: CustomerEmailOrder, token: string): EmailLinks {
  const base = `${publicUrl.replace(/\/+$/, '')}/portal/${encodeURIComponent(o.organization.slug)}`;
  const signed = (path: string) => `${base}/${path}?${EMAIL_LINK_PARAM}=${token}`;
  const p = o.payload;
  const isOrder = typeof p.billing_reason === 'string';
  const subscriptionId = isOrder ? p.subscription_id : p.id;
  // Files are downloaded from the portal's Benefits page (fresh one-hour links), never from a stored URL.
  const downloads = o.purchased?.files.length ? { downloads: signed('benefits') } : {};
  if (o.kind === 'payment_method_expiration_reminder') return { portal: signed('payment-methods') };
  if (isOrder && o.kind === 'order_confirmation')
    return { portal: signed('orders'), invoice: signed(`orders/${p.id}/invoice`), ...downloads };
  return {
    portal: signed(subscriptionId ? `subscriptions/${subscriptionId}` : 'orders'),
    ...(isOrder ? { invoice: signed(`orders/${p.id}/invoice`) } : {}),
    ...downloads,
  };
}
