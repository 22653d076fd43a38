import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../kit/clock.js';
import type { DatabaseWaits, EnvironmentName } from '../../kit/config.js';
import type { SubgraphRuntime } from '../../kit/graphql/subgraph-runtime.js';
import type { OwnerMailbox } from '../../kit/email/owner-mailbox.js';
import type { Logger } from '../../kit/logger.js';
import { OwnerNoticeRelay } from '../../kit/email/owner-notices.js';
import type { WebhooksContext } from './context.js';
import { InProcessWebhookIngest } from './events/event-ingest.js';
import { openWebhooksOrm } from './orm.js';
import { buildWebhooksSchema, WEBHOOKS_SUBGRAPH } from './schema.js';
import { createWebhooksServices, type WebhooksServices } from './services.js';
import type { DeliveryPolicy } from './worker/delivery-policy.js';
import { DeliverySender } from './worker/delivery-sender.js';
import { DeliveryWorker } from './worker/delivery-worker.js';

// What a composition root (embedded/, cli/) wires around the runtime.
export { InProcessWebhookIngest } from './events/event-ingest.js';
export { deliveryPolicyOf } from './worker/delivery-policy.js';
export { WEBHOOKS_QUEUE_DEPTH_SQL } from './worker/queue-depth.queries.js';
export { DeliveryWorker } from './worker/delivery-worker.js';
export { EventStream } from './events/event-stream.js';
export { envelopeSeenBy } from './events/event-envelope.js';
export { QUEUED_TOPIC as WEBHOOKS_QUEUED_TOPIC } from './worker/delivery-worker.js';
export { generateWebhookSecret } from './endpoints/webhook-secret.js';
export { openWebhooksOrm } from './orm.js';
export { DeliverySender, WEBHOOK_USER_AGENT } from './worker/delivery-sender.js';
export { signatureHeader } from './worker/delivery-signature.js';

export interface WebhooksRuntime extends SubgraphRuntime<WebhooksContext> {
  orm: MikroORM;
  services: WebhooksServices;
  /** What producers' outbox relays hand their events to (in-process). */
  ingest: InProcessWebhookIngest;
  /** The delivery worker, when this process runs one. */
  worker: DeliveryWorker | undefined;
  /** E-mails endpoint-disabled notifications to organizations' owners, when a mailbox was given. */
  notifications: OwnerNoticeRelay | undefined;
  close(): Promise<void>;
}

export interface WebhooksOptions {
  databaseUrl: string;
  clock: Clock;
  logger: Logger;
  /** The `environment` label of its metrics (docs/observability.md). */
  environment: EnvironmentName;
  /** The sandbox, or WEBHOOK_ALLOW_PRIVATE_TARGETS: loopback and private targets are allowed. */
  allowPrivateTargets: boolean;
  policy: DeliveryPolicy;
  /** Run the delivery worker in this process (embedded topology; the distributed one runs worker.ts). */
  runWorker: boolean;
  poolMax?: number;
  /** The bounds of every database wait (kit/database/waits.ts); the defaults when absent. */
  databaseWaits?: DatabaseWaits;
  /**
   * Billing's e-mail outbox (in-process or signed RPC): endpoint-disabled notifications are e-mailed
   * through it. Absent: they wait in `webhooks.owner_notices` (and the log) until a process with one runs.
   */
  ownerMailbox?: OwnerMailbox | null;
}

/** Connects, migrates and builds the webhooks subgraph for one environment's database. */
export async function startWebhooks(options: WebhooksOptions): Promise<WebhooksRuntime> {
  const orm = await openWebhooksOrm(options.databaseUrl, options.poolMax, { waits: options.databaseWaits });
  const schema = await buildWebhooksSchema();
  const notifications = options.ownerMailbox ? new OwnerNoticeRelay(orm, 'webhooks', options.logger) : undefined;
  const worker = options.runWorker ? createDeliveryWorker(orm, options, () => notifications?.wake()) : undefined;
  const wake = () => worker?.wake();
  const services = createWebhooksServices({ allowPrivateTargets: options.allowPrivateTargets, onQueued: wake });
  try {
    // Messages queued and notices written by any process on this database wake them (triggers notify).
    await worker?.listen(options.databaseUrl);
    await notifications?.listen(options.databaseUrl);
  } catch (error) {
    await worker?.stop();
    await notifications?.stop();
    await orm.close();
    throw error;
  }
  worker?.start();
  if (options.ownerMailbox) notifications?.start(options.ownerMailbox);
  return {
    name: WEBHOOKS_SUBGRAPH,
    schema,
    orm,
    services,
    ingest: new InProcessWebhookIngest(orm, wake),
    worker,
    notifications,
    createContext: (principal, requestId) => ({
      em: orm.em.fork(),
      principal,
      clock: options.clock,
      requestId,
      services,
    }),
    close: async () => {
      await worker?.stop();
      await notifications?.stop();
      await orm.close();
    },
  };
}

export function createDeliveryWorker(
  orm: MikroORM,
  options: Pick<WebhooksOptions, 'allowPrivateTargets' | 'policy' | 'logger' | 'environment'>,
  onEndpointDisabled?: () => void,
): DeliveryWorker {
  return new DeliveryWorker(
    orm,
    new DeliverySender(options.allowPrivateTargets),
    options.policy,
    options.logger,
    options.environment,
    onEndpointDisabled,
  );
}
