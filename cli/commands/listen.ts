import { optionalString, requireId, requireString } from '../args.js';
import { defineCommand } from '../command.js';
import {
  DeliverySender,
  EventStream,
  generateWebhookSecret,
  openWebhooksOrm,
  signatureHeader,
  WEBHOOK_USER_AGENT,
} from '../../subgraphs/webhooks/runtime.js';

const POLL_MS = 250;

/**
 * `listen`: forwards an organization's events, as they happen, to a local URL, signed like real
 * deliveries (as `stripe listen` does). It reads the environment's event store directly (the CLI runs
 * next to the server's database) from the newest event on, and posts each envelope with a secret of
 * its own (printed at start, or `--secret`), so a local handler can verify with either library. It
 * creates no endpoint and changes nothing: real endpoints keep their deliveries, retries and order;
 * a failed forward is printed and not retried. Ctrl-C (or `--max-events N`) stops it.
 */
export const listen = defineCommand({
  name: 'listen',
  summary: "Forward an organization's webhook events to a local URL, signed",
  usage: '--forward-to URL --organization ID [--secret whsec_…] [--max-events N] [--env production|sandbox]',
  notes: [
    'Prints the signing secret, then one line per event: type, webhook-id and the answer.',
    'Only events that happen after it starts are forwarded.',
  ],
  options: {
    'forward-to': { type: 'string' },
    organization: { type: 'string' },
    secret: { type: 'string' },
    'max-events': { type: 'string' },
  },
  parse: values => {
    const target = requireString(values, 'forward-to');
    new URL(target);
    const max = optionalString(values, 'max-events');
    return {
      target,
      organizationId: requireId(values, 'organization'),
      secret: optionalString(values, 'secret') ?? generateWebhookSecret(),
      maxEvents: max ? Number.parseInt(max, 10) : Number.POSITIVE_INFINITY,
    };
  },
  async run({ databaseUrl, environment }, input) {
    const orm = await openWebhooksOrm(databaseUrl, 2);
    const sender = new DeliverySender(true);
    const stream = new EventStream(orm);
    let stopped = false;
    const stop = () => {
      stopped = true;
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    let forwarded = 0;
    try {
      let position = await stream.head(input.organizationId);
      process.stdout.write(
        `Ready (${environment}). Forwarding to ${input.target}; signing secret ${input.secret} (Ctrl-C to stop)\n`,
      );
      while (!stopped && forwarded < input.maxEvents) {
        const events = await stream.after(input.organizationId, position);
        for (const event of events) {
          if (forwarded >= input.maxEvents) break;
          position = event.position;
          const body = Buffer.from(event.payload, 'utf8');
          const timestamp = Math.floor(Date.now() / 1000);
          const result = await sender.send(
            input.target,
            {
              'content-type': 'application/json',
              'user-agent': WEBHOOK_USER_AGENT,
              'webhook-id': event.id,
              'webhook-timestamp': String(timestamp),
              'webhook-signature': signatureHeader(input.secret, event.id, timestamp, body),
            },
            body,
          );
          forwarded++;
          process.stdout.write(
            `--> ${event.type} [${event.id}]  <-- ${result.httpCode ?? result.error} (${result.durationMs} ms)\n`,
          );
        }
        if (events.length === 0) await new Promise(resolve => setTimeout(resolve, POLL_MS));
      }
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      sender.close();
      await orm.close();
    }
    return { json: { forwarded, secret: input.secret }, text: `Forwarded ${forwarded} event(s).` };
  },
});
