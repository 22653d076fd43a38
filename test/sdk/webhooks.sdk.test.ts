// Compatibility of the webhook endpoints and deliveries with the official Speakeasy SDK `@polar-sh/sdk`
// 0.48.1, which zod-validates every response. Production here runs with WEBHOOK_ALLOW_PRIVATE_TARGETS=true
// (what an operator sets to let production reach a loopback receiver).
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { validateEvent } from '@polar-sh/sdk/webhooks';
import { failure, ok, polarClient } from '../support/sdk.js';
import { createTenant, startTestStack, type Tenant, type TestStack } from '../support/stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

let stack: TestStack;
let owner: Tenant;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await startTestStack('sdk_webhooks', undefined, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  owner = await createTenant(stack.production);
  receiver = await new WebhookReceiver().start();
});

afterAll(async () => {
  await stack?.close();
  await receiver?.close();
});

describe('webhooks with @polar-sh/sdk 0.48.1', () => {
  it('creates, lists, gets, updates, resets and deletes an endpoint; lists deliveries; redelivers', async () => {
    const polar = polarClient(stack.production, owner.oat);
    const endpoint = await ok(
      polar.webhooks.createWebhookEndpoint({
        url: receiver.url('/sdk'),
        format: 'raw',
        events: ['customer.created', 'customer.updated'],
      }),
    );
    expect(endpoint).toMatchObject({ format: 'raw', enabled: true, organizationId: owner.organizationId });
    const list = await ok(polar.webhooks.listWebhookEndpoints({}));
    expect(list.result.items.map(e => e.id)).toEqual([endpoint.id]);
    expect((await ok(polar.webhooks.getWebhookEndpoint({ id: endpoint.id }))).url).toBe(receiver.url('/sdk'));
    const updated = await ok(
      polar.webhooks.updateWebhookEndpoint({
        id: endpoint.id,
        webhookEndpointUpdate: { events: ['customer.created'] },
      }),
    );
    expect(updated.events).toEqual(['customer.created']);

    const customer = await ok(polar.customers.create({ email: `sdk-webhook-${Date.now()}@example.com` }));
    await receiver.until(() => receiver.on('/sdk').length === 1, 'customer.created');
    const [hook] = receiver.on('/sdk');
    expect(validateEvent(hook.body, hook.headers as Record<string, string>, endpoint.secret)).toMatchObject({
      type: 'customer.created',
      data: { id: customer.id },
    });

    // The worker records the attempt just after the receiver answered.
    let deliveries = await ok(polar.webhooks.listWebhookDeliveries({ endpointId: endpoint.id }));
    for (let i = 0; i < 50 && deliveries.result.items.length === 0; i++) {
      await new Promise(resolve => setTimeout(resolve, 100));
      deliveries = await ok(polar.webhooks.listWebhookDeliveries({ endpointId: endpoint.id }));
    }
    expect(deliveries.result.items).toHaveLength(1);
    expect(deliveries.result.items[0]).toMatchObject({ succeeded: true, httpCode: 200 });
    const eventId = deliveries.result.items[0].webhookEvent.id;
    await ok(polar.webhooks.redeliverWebhookEvent({ id: eventId }));
    await receiver.until(() => receiver.on('/sdk').length === 2, 'the redelivery');
    expect(receiver.on('/sdk')[1].body).toBe(hook.body);
    expect(receiver.on('/sdk')[1].headers['webhook-id']).toBe(eventId);

    const reset = await ok(polar.webhooks.resetWebhookEndpointSecret({ id: endpoint.id }));
    expect(reset.secret).not.toBe(endpoint.secret);
    await ok(polar.webhooks.deleteWebhookEndpoint({ id: endpoint.id }));
    await failure(polar.webhooks.getWebhookEndpoint({ id: endpoint.id }), ResourceNotFound);
  });
});
