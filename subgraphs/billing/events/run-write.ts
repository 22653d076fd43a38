import { writeFrame } from '../../../kit/database/write/write-frame.js';
import { recordEvent } from './record-event.js';

/**
 * Billing's write frame (kit/database/write): a change and the events it returns, in one transaction,
 * the events in billing's outbox (`billing.events`, relayed to webhooks by the outbox relay).
 */
export const runWrite = writeFrame((em, events) => {
  for (const event of events) recordEvent(em, event.organizationId, event.type, event.payload, event.at);
});
