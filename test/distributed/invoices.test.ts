import { extractText, getDocumentProxy } from 'unpdf';
import { call } from '../support/stack.js';
import { alice, logsOf, parts, PUBLIC_URL, rest, useDistributedStack } from './support.js';

useDistributedStack();

/**
 * An invoice across the separate processes: the gateway fetches the seller's name from the identity
 * process for billing's `@requires`, billing stores the PDF in PostgreSQL, and the REST adapter serves
 * it behind the signed link (built on PUBLIC_URL; this test reaches the adapter on its loopback port).
 */
describe('invoices in the distributed topology', () => {
  it('generates an order invoice and serves the PDF through the signed link', async () => {
    const api = (method: string, path: string, body?: unknown) =>
      call(rest.url, method, path, { token: alice.oat, body });
    const renamed = await api('PATCH', `/v1/organizations/${alice.organizationId}`, { name: 'Distributed Seller' });
    expect(renamed.status).toBe(200);
    const product = await api('POST', '/v1/products/', {
      name: 'Free guide',
      recurring_interval: null,
      prices: [{ amount_type: 'free' }],
    });
    const checkout = await api('POST', '/v1/checkouts/', {
      products: [product.body.id],
      customer_email: 'd@example.com',
    });
    const confirmed = await call(rest.url, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
      body: {},
    });
    expect(confirmed.status).toBe(200);
    let order: any;
    for (let i = 0; i < 50 && !order; i++) {
      order = (await api('GET', `/v1/orders/?checkout_id=${checkout.body.id}`)).body.items?.[0];
      if (!order) await new Promise(resolve => setTimeout(resolve, 100));
    }
    expect(order).toBeDefined();
    await api('PATCH', `/v1/orders/${order.id}`, {
      billing_name: 'Remote Buyer',
      billing_address: { line1: '1 Main St', city: 'Oslo', postal_code: '0150', country: 'NO' },
    });

    const generated = await api('POST', `/v1/orders/${order.id}/invoice`);
    if (generated.status !== 202)
      throw new Error(`${generated.status} ${generated.text}\n${parts.map(logsOf).join('\n')}`);
    const { url } = (await api('GET', `/v1/orders/${order.id}/invoice`)).body;
    expect(url.startsWith(`${PUBLIC_URL}/v1/orders/${order.id}/invoice/pdf?`)).toBe(true);
    const pdf = await fetch(url.replace(PUBLIC_URL, rest.url));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const document = await getDocumentProxy(new Uint8Array(await pdf.arrayBuffer()));
    const { text } = await extractText(document, { mergePages: true });
    expect(text).toContain('Distributed Seller');
    expect(text).toContain('Remote Buyer');
    expect(text).toContain(`Invoice number: ${order.invoice_number}`);
  });
});
