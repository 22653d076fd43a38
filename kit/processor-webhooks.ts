import type { RpcContract } from './http/signed-rpc.js';

/**
 * The payment processor's webhooks as the REST adapter hands them to billing: the exact bytes and the
 * signature header, verified by billing (which holds the signing secret). Plain JSON in and out:
 * in-process when embedded, signed JSON RPC (`PROCESSOR_WEBHOOKS_RPC`, served by billing) when
 * distributed.
 */
export interface ProcessorWebhookDelivery {
  /** The body as received (UTF-8): the signature covers these bytes, not a re-serialization. */
  body: string;
  /** `Stripe-Signature` (null: the request had none). */
  signature: string | null;
}

export type ProcessorWebhookResult =
  /** Verified: applied (`handled`), nothing to do (`ignored`), or applied before (`duplicate`). */
  | { result: 'handled' | 'ignored' | 'duplicate'; detail?: undefined }
  /** This environment takes no Stripe payments, or has no signing secret to verify with. */
  | { result: 'not_configured'; detail: string }
  | { result: 'invalid_signature'; detail: string };

export interface ProcessorWebhooks {
  receiveStripe(delivery: ProcessorWebhookDelivery): Promise<ProcessorWebhookResult>;
}

export const PROCESSOR_WEBHOOKS_RPC: RpcContract<ProcessorWebhooks> = {
  prefix: '/internal/processor-webhooks',
  methods: { receiveStripe: true },
};
