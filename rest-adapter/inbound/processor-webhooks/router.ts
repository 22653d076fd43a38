import { readRawBody } from '../raw-body.js';
import express, { type Request, type Response } from 'express';
import type { Logger } from '../../../kit/logger.js';
import { sendError } from '../../v1/wire-errors.js';
import type { ProcessorWebhookResult, ProcessorWebhooks } from '../../../kit/processor-webhooks.js';

export const STRIPE_WEBHOOK_PATH = '/v1/integrations/stripe/webhook';

export interface ProcessorWebhookDependencies {
  /** Billing's receiver (in-process or signed RPC): it holds the signing secret and applies the events. */
  webhooks: ProcessorWebhooks;
  logger: Logger;
}

/** HTTP status and body of each result; Stripe sends again on anything but a 2xx. */
const ANSWERS: Record<ProcessorWebhookResult['result'], { status: number; error?: string }> = {
  handled: { status: 200 },
  ignored: { status: 200 },
  duplicate: { status: 200 },
  not_configured: { status: 503, error: 'ProcessorWebhookNotConfigured' },
  invalid_signature: { status: 400, error: 'InvalidWebhookSignature' },
};

/**
 * `POST /v1/integrations/stripe/webhook` (Polar's path): Stripe's events about payments and refunds it
 * answered as pending. Mounted before the JSON parser (app.ts `rawBodyRouters`), because
 * `Stripe-Signature` covers the exact bytes: they go to billing as received, and billing verifies them
 * with `STRIPE_WEBHOOK_SECRET`. No principal: the signature is the authentication.
 */
export function createProcessorWebhookRouter(deps: ProcessorWebhookDependencies): express.Router {
  const router = express.Router();
  router.post(STRIPE_WEBHOOK_PATH, readRawBody('1mb'), async (req: Request, res) => {
    try {
      const raw: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const answer = await deps.webhooks.receiveStripe({
        body: raw.toString('utf8'),
        signature: req.get('stripe-signature') ?? null,
      });
      reply(res, answer);
    } catch (error) {
      deps.logger.error({ err: error, requestId: req.requestId }, 'stripe webhook failed');
      // A 5xx (billing unreachable, say): Stripe sends the event again later, and its id makes that safe.
      sendError(res, error);
    }
  });
  return router;
}

function reply(res: Response, answer: ProcessorWebhookResult): void {
  const { status, error } = ANSWERS[answer.result] ?? ANSWERS.not_configured;
  if (error) res.status(status).json({ error, detail: answer.detail ?? error });
  else res.status(status).json({ received: true, result: answer.result });
}
