import pg from 'pg';
import { call } from '../support/stack.js';
import { stack, base, alice, monthly, create, useProductsStack } from './support/products.js';

/** /v1/products/ through the public REST API: REST → gateway → billing → PostgreSQL. */
useProductsStack();

describe('outbox', () => {
  it('records product.created and product.updated with the wire payload', async () => {
    const product = await create(alice.oat, monthly('Evented'));
    await call(base, 'PATCH', `/v1/products/${product.id}`, { token: alice.oat, body: { name: 'Evented 2' } });
    const client = new pg.Client({
      connectionString: stack.production.environment.billing.orm.config.get('clientUrl'),
    });
    await client.connect();
    try {
      const { rows } = await client.query(
        `select type, organization_id, payload from billing.events where payload->>'id' = $1 order by created_at`,
        [product.id],
      );
      expect(rows.map(r => r.type)).toEqual(['product.created', 'product.updated']);
      expect(rows[0].organization_id).toBe(alice.organizationId);
      expect(rows[1].payload).toMatchObject({
        id: product.id,
        name: 'Evented 2',
        prices: [expect.objectContaining({ price_amount: 1500 })],
      });
    } finally {
      await client.end();
    }
  });
});
