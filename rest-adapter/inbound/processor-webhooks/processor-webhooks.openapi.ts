import { type Json, jsonContent, polarVersionRef, refs, schemaRef } from '../../v1/openapi/wire-schemas.js';
import { STRIPE_WEBHOOK_PATH } from './router.js';

/** Stripe's webhook endpoint (router.ts), which has no route table entry. */

export const processorWebhookSchemas: Record<string, Json> = {
  ProcessorWebhookReceived: {
    type: 'object',
    required: ['received', 'result'],
    properties: {
      received: { type: 'boolean', const: true },
      result: {
        type: 'string',
        enum: ['handled', 'ignored', 'duplicate'],
        description:
          '`handled`: a pending payment or refund was settled; `ignored`: nothing of ours, already settled, or a ' +
          'kind this service does not act on; `duplicate`: this event id was applied before',
      },
    },
  },
};

export const processorWebhookPaths: Record<string, Json> = {
  [STRIPE_WEBHOOK_PATH]: {
    post: {
      operationId: 'integrations_stripe:webhook',
      summary: "Receive Stripe's events about pending payments and refunds",
      description:
        'Point a Stripe webhook endpoint here and set its signing secret as `STRIPE_WEBHOOK_SECRET`. No bearer: the ' +
        "request is authenticated by `Stripe-Signature` over the raw body (Stripe's scheme, 5-minute tolerance). " +
        'Events applied: `payment_intent.succeeded` and `payment_intent.payment_failed` settle a charge Stripe ' +
        'answered as in flight (a renewal order is then paid, or goes to dunning as a decline would); ' +
        '`refund.updated`, `refund.failed` and `charge.refund.updated` settle a refund Stripe answered as pending ' +
        '(the order counts it once it succeeds, and again not if it fails later; `refund.updated` is sent to the ' +
        'merchant either way). Each event is ' +
        'applied once, by its id; other events, and events about payments of other systems on the same Stripe ' +
        'account, are acknowledged. The sandbox takes no Stripe payments: 503 there.',
      tags: ['integrations'],
      security: [],
      parameters: [
        {
          name: 'Stripe-Signature',
          in: 'header',
          required: true,
          description: '`t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the signing secret>`',
          schema: { type: 'string' },
        },
        polarVersionRef,
      ],
      requestBody: {
        required: true,
        description: 'A Stripe event object, exactly as Stripe sent it',
        content: jsonContent({ type: 'object', additionalProperties: true }),
      },
      responses: {
        200: { description: 'Verified and recorded', content: jsonContent(schemaRef('ProcessorWebhookReceived')) },
        400: {
          description:
            'No or an invalid `Stripe-Signature` (`InvalidWebhookSignature`), or a body that cannot be read ' +
            '(`BadRequest`, e.g. a broken Content-Encoding); nothing changed',
          content: jsonContent(schemaRef('Error')),
        },
        ...refs([
          [404, 'UnsupportedVersion'],
          [413, 'PayloadTooLarge'],
        ]),
        500: {
          description: 'Billing could not be reached; Stripe sends the event again',
          content: jsonContent(schemaRef('Error')),
        },
        503: {
          description:
            'This environment takes no Stripe payments, or `STRIPE_WEBHOOK_SECRET` is not set (`ProcessorWebhookNotConfigured`)',
          content: jsonContent(schemaRef('Error')),
        },
      },
    },
  },
};
