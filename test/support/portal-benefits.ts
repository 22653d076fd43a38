import { createHash } from 'node:crypto';
import { call, type RunningEnvironment, type Tenant } from './stack.js';
import { until } from './until.js';

/**
 * What the portal's Benefits tests need from a seller: an uploaded file (Polar's flow: create, PUT the
 * one part to its signed link, complete), benefits, and a free product bought by a customer through a
 * checkout, with the grant jobs run until the grants are there.
 */
export async function uploadFile(env: RunningEnvironment, shop: Tenant, name: string, bytes: Buffer) {
  const base = env.baseUrl;
  const sha = createHash('sha256').update(bytes).digest('base64');
  const created = await call(base, 'POST', '/v1/files/', {
    token: shop.oat,
    body: {
      name,
      mime_type: 'text/plain',
      size: bytes.length,
      checksum_sha256_base64: sha,
      upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: bytes.length }] },
      service: 'downloadable',
    },
  });
  if (created.status !== 201) throw new Error(`file: ${created.status} ${created.text}`);
  const part = created.body.upload.parts[0];
  // Links carry the environment's public URL; the test server listens on another port.
  const url = new URL(part.url);
  const put = await fetch(`${base}${url.pathname}${url.search}`, { method: 'PUT', body: bytes });
  if (put.status !== 200) throw new Error(`part: ${put.status}`);
  const done = await call(base, 'POST', `/v1/files/${created.body.id}/uploaded`, {
    token: shop.oat,
    body: {
      id: created.body.upload.id,
      path: created.body.upload.path,
      parts: [{ number: 1, checksum_etag: put.headers.get('etag'), checksum_sha256_base64: null }],
    },
  });
  if (done.status !== 200) throw new Error(`complete: ${done.status} ${done.text}`);
  return done.body as { id: string; name: string };
}

export async function createBenefit(env: RunningEnvironment, shop: Tenant, body: Record<string, unknown>) {
  const res = await call(env.baseUrl, 'POST', '/v1/benefits/', { token: shop.oat, body });
  if (res.status !== 201) throw new Error(`benefit: ${res.status} ${res.text}`);
  return res.body as { id: string };
}

/** A free product with `benefitIds`, bought by `customerId`; resolves once `grants` grants are granted. */
export async function buyWithBenefits(
  env: RunningEnvironment,
  shop: Tenant,
  customerId: string,
  benefitIds: string[],
  name = 'Bundle',
) {
  const base = env.baseUrl;
  const product = await call(base, 'POST', '/v1/products/', {
    token: shop.oat,
    body: { name, prices: [{ amount_type: 'free' }] },
  });
  await call(base, 'POST', `/v1/products/${product.body.id}/benefits`, {
    token: shop.oat,
    body: { benefits: benefitIds },
  });
  const checkout = await call(base, 'POST', '/v1/checkouts/', {
    token: shop.oat,
    body: { products: [product.body.id], customer_id: customerId },
  });
  await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, { body: {} });
  await untilGranted(env, shop, customerId, benefitIds.length);
}

/** Runs the jobs until the customer holds `count` grants, for up to 60 s (the grant jobs run after the order). */
export async function untilGranted(env: RunningEnvironment, shop: Tenant, customerId: string, count: number) {
  const granted = await until(async () => {
    await env.environment.billing.jobs.drain();
    const grants = await call(
      env.baseUrl,
      'GET',
      `/v1/benefit-grants/?customer_id=${customerId}&is_granted=true&limit=100`,
      { token: shop.oat },
    );
    return grants.body.items?.length >= count;
  }, 60_000);
  if (!granted) throw new Error('the grants did not arrive within 60 s');
}
