import type { RpcContract } from '../../../kit/http/signed-rpc.js';

/** One domain event as its producer's outbox holds it (billing.events): the resource's wire body as payload. */
export interface SourceEvent {
  /** The outbox row's id: ingestion is idempotent on it. */
  id: string;
  organizationId: string;
  /** `subscription.created`, … (docs/polar/webhooks.md). */
  type: string;
  /** The resource's public shape at the time of the change: the webhook's `data`. */
  payload: Record<string, unknown>;
  /** ISO time of the change: the envelope's `timestamp`. */
  createdAt: string;
}

/**
 * How a producing subgraph hands its outbox to the webhooks subgraph. `ingest` stores each event once
 * and queues it for every enabled endpoint of its organization that subscribes to its type, all in one
 * transaction; an event whose `id` was already ingested is skipped. So a relay may call it again with
 * the same rows after a crash (before it marked them dispatched) without doubling anything.
 * Called in-process in the embedded topology and over signed JSON RPC in the distributed one.
 */
export interface WebhookIngest {
  ingest(events: SourceEvent[]): Promise<{ ingested: number }>;
}

export const WEBHOOK_INGEST_RPC: RpcContract<WebhookIngest> = {
  prefix: '/internal/webhooks',
  methods: { ingest: true },
};
