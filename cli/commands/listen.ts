import { ChannelListener } from '../../kit/database/channel-listener.js';
import { WORK_CHANNEL } from '../../kit/database/work-signals.js';
import { API_VERSIONS, type ApiVersion } from '../../kit/api-versions.js';
import { oneOf, optionalString, requireId, requireString } from '../args.js';
import { defineCommand } from '../command.js';
import {
  DeliverySender,
  envelopeSeenBy,
  EventStream,
  generateWebhookSecret,
  openWebhooksOrm,
  signatureHeader,
  WEBHOOK_USER_AGENT,
  WEBHOOKS_QUEUED_TOPIC,
} from '../../subgraphs/webhooks/runtime.js';

/** Ingestion's notification (the messages trigger's `webhooks.queued` on `background_work`) wakes the listener at once; the poll is a fallback, closer while it cannot listen. */
const LISTENING_POLL_MS = 2_000;
const UNLISTENED_POLL_MS = 250;
/** The ids of this many of the latest forwarded events are remembered: none is forwarded twice. */
const REMEMBERED_IDS = 10_000;

/**
 * `listen`: forwards an organization's events, as they happen, to a local URL, signed like real
 * deliveries (as `stripe listen` does). It reads the environment's event store directly (the CLI runs
 * next to the server's database) from the newest event on, and posts each envelope once, in the order
 * the organization's endpoints receive them (event-stream.ts), with a secret of its own (printed at
 * start, or `--secret`), so a local handler can verify with either library. It creates no endpoint
 * and changes nothing: real endpoints keep their deliveries, retries and order; a failed forward is
 * printed and not retried. Ctrl-C (or `--max-events N`) stops it. `--api-version` relays what an
 * endpoint of that version receives (its event types, its envelope); without it, what an endpoint
 * created without a version receives (docs/webhooks.md#api-versions).
 */
export const listen = defineCommand({
  name: 'listen',
  summary: "Forward an organization's webhook events to a local URL, signed",
  usage:
    '--forward-to URL --organization ID [--api-version 2026-10] [--secret whsec_…] [--max-events N] [--env production|sandbox]',
  notes: [
    'Prints the signing secret, then one line per event: type, webhook-id and the answer.',
    'Only events that happen after it starts are forwarded, each once, in the order endpoints receive them.',
    `--api-version (${API_VERSIONS.join(', ')}): events as an endpoint of that version gets them; without it, as an endpoint without a version (the 0.4x SDKs' event types and envelope).`,
  ],
  options: {
    'forward-to': { type: 'string' },
    organization: { type: 'string' },
    'api-version': { type: 'string' },
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
      apiVersion:
        values['api-version'] === undefined
          ? null
          : oneOf<ApiVersion>(values, 'api-version', API_VERSIONS, API_VERSIONS[0]),
      secret: optionalString(values, 'secret') ?? generateWebhookSecret(),
      maxEvents: max ? Number.parseInt(max, 10) : Number.POSITIVE_INFINITY,
    };
  },
  async run({ databaseUrl, environment }, input) {
    const orm = await openWebhooksOrm(databaseUrl, 2);
    const sender = new DeliverySender(true);
    const stream = new EventStream(orm);
    const wakeUp = new WakeUp();
    const queued = new ChannelListener(
      databaseUrl,
      WORK_CHANNEL,
      // Connected (again): look once for what was ingested while nobody listened.
      {
        notified: topic => {
          if (topic === WEBHOOKS_QUEUED_TOPIC) wakeUp.wake();
        },
        listening: () => wakeUp.wake(),
      },
      'cli-listen',
    );
    let stopped = false;
    const stop = () => {
      stopped = true;
      wakeUp.wake();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    let forwarded = 0;
    const sent = new RecentIds(REMEMBERED_IDS);
    try {
      // Listening before the head is read: an event ingested in between wakes the first wait.
      await queued.start().catch(() => undefined);
      let position = await stream.head(input.organizationId);
      process.stdout.write(
        `Ready (${environment}). Forwarding to ${input.target}; signing secret ${input.secret} (Ctrl-C to stop)\n`,
      );
      while (!stopped && forwarded < input.maxEvents) {
        const events = await stream.after(input.organizationId, position);
        for (const event of events) {
          if (forwarded >= input.maxEvents) break;
          position = event.position;
          // Exactly once, even should a read ever return an event again (the cursor only moves forward).
          if (!sent.add(event.id)) continue;
          const envelope = envelopeSeenBy(event, input.apiVersion);
          if (envelope === null) continue;
          const body = Buffer.from(envelope, 'utf8');
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
        if (events.length === 0 && !stopped)
          await wakeUp.wait(queued.connected ? LISTENING_POLL_MS : UNLISTENED_POLL_MS);
      }
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      sender.close();
      await queued.close();
      await orm.close();
    }
    return { json: { forwarded, secret: input.secret }, text: `Forwarded ${forwarded} event(s).` };
  },
});

/**
 * A wait that a notification cuts short. A wake while nobody waits is kept for the next wait, so an
 * event ingested while the listener was reading or sending is looked for at once.
 */
class WakeUp {
  private pending = false;
  private resolve: (() => void) | undefined;

  wake(): void {
    if (this.resolve) this.resolve();
    else this.pending = true;
  }

  wait(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise(resolve => {
      const done = () => {
        clearTimeout(timer);
        this.resolve = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.resolve = done;
    });
  }
}

/** The latest `capacity` ids, oldest forgotten first. */
class RecentIds {
  private readonly ids = new Set<string>();

  constructor(private readonly capacity: number) {}

  /** False when the id is already among them. */
  add(id: string): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value as string);
    return true;
  }
}
