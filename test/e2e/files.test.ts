import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { signedDownloadUrl } from '../../subgraphs/billing/files/file-links.js';
import { call, createTenant, TEST_SECRET, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * Files of the downloadables benefit through HTTP: Polar's upload flow (create → PUT each part to its
 * signed link → complete), the checksum checks, and downloads through signed links.
 */
let stack: TestStack;
let base: string;
let alice: Tenant;
let bob: Tenant;

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.production.baseUrl;
  alice = await createTenant(stack.production);
  bob = await createTenant(stack.production);
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64');
/** Links carry the environment's public URL; the test server listens elsewhere. */
const local = (url: string) => {
  const u = new URL(url);
  return `${base}${u.pathname}${u.search}`;
};

/** Splits `bytes` into parts of `partSize` (Polar's client plan) and creates the file. */
async function createFile(
  bytes: Buffer,
  partSize: number,
  options: { checksum?: string; partChecksums?: boolean } = {},
) {
  const parts = [];
  for (let start = 0, number = 1; start < bytes.length || number === 1; start += partSize, number++) {
    const end = Math.min(start + partSize, bytes.length);
    parts.push({
      number,
      chunk_start: start,
      chunk_end: end,
      ...(options.partChecksums ? { checksum_sha256_base64: sha256(bytes.subarray(start, end)) } : {}),
    });
    if (end >= bytes.length) break;
  }
  const res = await call(base, 'POST', '/v1/files/', {
    token: alice.oat,
    body: {
      name: 'manual (v2).pdf',
      mime_type: 'application/pdf',
      size: bytes.length,
      checksum_sha256_base64: options.checksum ?? sha256(bytes),
      upload: { parts },
      service: 'downloadable',
    },
  });
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return res.body;
}

async function putParts(file: any, bytes: Buffer) {
  const completed = [];
  for (const part of file.upload.parts) {
    const res = await fetch(local(part.url), { method: 'PUT', body: bytes.subarray(part.chunk_start, part.chunk_end) });
    expect(res.status).toBe(200);
    completed.push({
      number: part.number,
      checksum_etag: res.headers.get('etag'),
      checksum_sha256_base64: part.checksum_sha256_base64 ?? null,
    });
  }
  return completed;
}

const complete = (file: any, parts: unknown[], token = alice.oat) =>
  call(base, 'POST', `/v1/files/${file.id}/uploaded`, {
    token,
    body: { id: file.upload.id, path: file.upload.path, parts },
  });

describe('upload and download', () => {
  it('uploads in parts, completes with the right checksum, downloads the same bytes', async () => {
    const bytes = randomBytes(1_300_000);
    const file = await createFile(bytes, 700_000, { partChecksums: true });
    expect(file).toMatchObject({
      name: 'manual (v2).pdf',
      mime_type: 'application/pdf',
      size: 1_300_000,
      size_readable: '1.2 MB',
      service: 'downloadable',
      is_uploaded: false,
      organization_id: alice.organizationId,
      checksum_sha256_base64: sha256(bytes),
      checksum_sha256_hex: createHash('sha256').update(bytes).digest('hex'),
    });
    expect(file).not.toHaveProperty('created_at');
    expect(file.upload.parts).toHaveLength(2);
    expect(file.upload.parts[0]).toMatchObject({ number: 1, chunk_start: 0, chunk_end: 700_000, headers: {} });
    expect(new Date(file.upload.parts[0].expires_at).getTime()).toBeGreaterThan(Date.now() + 3500_000);

    // Not listed before it is complete.
    const before = await call(base, 'GET', `/v1/files/?ids=${file.id}`, { token: alice.oat });
    expect(before.body.items).toEqual([]);

    const parts = await putParts(file, bytes);
    const done = await complete(file, parts);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: file.id, is_uploaded: true, checksum_sha256_base64: sha256(bytes) });
    expect(done.body.checksum_etag).toMatch(/^"[0-9a-f]{32}-2"$/);
    expect(done.body.last_modified_at).not.toBeNull();
    const listed = await call(base, 'GET', '/v1/files/', { token: alice.pat });
    expect(listed.body.items.map((f: { id: string }) => f.id)).toContain(file.id);
    expect((await call(base, 'GET', '/v1/files/', { token: bob.oat })).body.items).toEqual([]);

    const link = signedDownloadUrl(file.id, { secret: TEST_SECRET, publicUrl: base, now: new Date(), ttlSeconds: 60 });
    const download = await fetch(link.url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-length')).toBe('1300000');
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="manual (v2).pdf"; filename*=UTF-8''manual%20(v2).pdf`,
    );
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);

    // A completed upload cannot be rewritten through its old links.
    const rewrite = await fetch(local(file.upload.parts[0].url), { method: 'PUT', body: randomBytes(10) });
    expect(rewrite.status).toBe(400);
  });

  it('refuses a wrong checksum at completion (422), changing nothing', async () => {
    const bytes = randomBytes(5000);
    const file = await createFile(bytes, 5000, { checksum: sha256(Buffer.from('something else')) });
    const parts = await putParts(file, bytes);
    const res = await complete(file, parts);
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('PolarRequestValidationError');
    expect(res.body.detail[0].msg).toContain('not to the checksum_sha256_base64 given when the file was created');
    const ids = await call(base, 'GET', `/v1/files/?ids=${file.id}`, { token: alice.oat });
    expect(ids.body.items).toEqual([]);
    const link = signedDownloadUrl(file.id, { secret: TEST_SECRET, publicUrl: base, now: new Date() });
    expect((await fetch(link.url)).status).toBe(404);
  });

  it('refuses a part whose bytes do not match its range or checksum (400)', async () => {
    const bytes = randomBytes(3000);
    const file = await createFile(bytes, 3000, { partChecksums: true });
    const short = await fetch(local(file.upload.parts[0].url), { method: 'PUT', body: bytes.subarray(0, 100) });
    expect(short.status).toBe(400);
    expect(((await short.json()) as { detail: string }).detail).toBe(
      'Part 1 is 3000 bytes (bytes 0 to 3000); 100 were sent.',
    );
    const other = await fetch(local(file.upload.parts[0].url), { method: 'PUT', body: randomBytes(3000) });
    expect(other.status).toBe(400);
    expect(((await other.json()) as { detail: string }).detail).toContain('not to its declared checksum_sha256_base64');
    const missing = await complete(file, [{ number: 1, checksum_etag: '"x"', checksum_sha256_base64: null }]);
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0].msg).toBe('Part 1 has not been uploaded.');
  });

  it('refuses tampered and expired links (403), and a deleted file (404)', async () => {
    const bytes = randomBytes(2000);
    const file = await createFile(bytes, 2000);
    const tamperedUpload = local(file.upload.parts[0].url).replace(/signature=./, 'signature=A');
    const refused = await fetch(tamperedUpload, { method: 'PUT', body: bytes });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: 'NotPermitted', detail: 'This link is invalid or has expired.' });
    await complete(file, await putParts(file, bytes));

    const link = signedDownloadUrl(file.id, { secret: TEST_SECRET, publicUrl: base, now: new Date() });
    const forged = new URL(link.url);
    forged.searchParams.set('expires', String(Number(forged.searchParams.get('expires')) + 3600));
    expect((await fetch(forged)).status).toBe(403);
    const otherSecret = signedDownloadUrl(file.id, { secret: 'another-secret', publicUrl: base, now: new Date() });
    expect((await fetch(otherSecret.url)).status).toBe(403);
    const expired = signedDownloadUrl(file.id, {
      secret: TEST_SECRET,
      publicUrl: base,
      now: new Date(Date.now() - 120_000),
      ttlSeconds: 60,
    });
    const gone = await fetch(expired.url);
    expect(gone.status).toBe(403);
    expect(await gone.json()).toEqual({ error: 'NotPermitted', detail: 'This link is invalid or has expired.' });

    expect((await fetch(link.url)).status).toBe(200);
    expect((await call(base, 'DELETE', `/v1/files/${file.id}`, { token: bob.oat })).status).toBe(404);
    expect((await call(base, 'DELETE', `/v1/files/${file.id}`, { token: alice.oat })).status).toBe(204);
    expect((await fetch(link.url)).status).toBe(404);
  });
});

describe('signed links with characters no signature has', () => {
  // A signature is base64url: a NUL (which the subgraphs refuse in any string), another control
  // character or a space is a wrong signature, answered as one, never a 500 or a 422.
  const BAD_SIGNATURES = (valid: string) => [
    `${valid}%00`,
    'a%00b',
    '%00',
    '%01',
    `${valid}%7F`,
    'a%0Ab',
    'a%20b',
    '%1B%5B31m',
  ];
  const withSignature = (url: string, signature: string) => url.replace(/signature=[^&]*/, `signature=${signature}`);
  const invalidLink = { error: 'NotPermitted', detail: 'This link is invalid or has expired.' };

  it('answers 403 to an upload or a download whose signature holds one, and the real links still work', async () => {
    const bytes = randomBytes(1000);
    const file = await createFile(bytes, 1000);
    const upload = local(file.upload.parts[0].url);
    for (const bad of BAD_SIGNATURES(new URL(upload).searchParams.get('signature')!)) {
      const res = await fetch(withSignature(upload, bad), { method: 'PUT', body: bytes });
      expect({ bad, status: res.status, body: await res.json() }).toEqual({ bad, status: 403, body: invalidLink });
    }
    await complete(file, await putParts(file, bytes));
    const link = signedDownloadUrl(file.id, { secret: TEST_SECRET, publicUrl: base, now: new Date() }).url;
    for (const bad of BAD_SIGNATURES(new URL(link).searchParams.get('signature')!)) {
      const res = await fetch(withSignature(link, bad));
      expect({ bad, status: res.status, body: await res.json() }).toEqual({ bad, status: 403, body: invalidLink });
    }
    const served = await fetch(link);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);
  });

  it('answers 403 InvalidInvoiceLink to an invoice link whose signature holds one, as to a wrong one', async () => {
    const url = `${base}/v1/orders/${randomUUID()}/invoice/pdf?expires=${Math.floor(Date.now() / 1000) + 600}&signature=AAAA`;
    const wrong = await fetch(url);
    expect(wrong.status).toBe(403);
    const wrongBody = (await wrong.json()) as { error: string };
    expect(wrongBody.error).toBe('InvalidInvoiceLink');
    for (const bad of BAD_SIGNATURES('AAAA')) {
      const res = await fetch(withSignature(url, bad));
      expect({ bad, status: res.status, body: await res.json() }).toEqual({ bad, status: 403, body: wrongBody });
    }
  });
});

describe('create, update and input', () => {
  it('renames a file, keeps other tenants out, and refuses bad plans with 422', async () => {
    const bytes = randomBytes(10);
    const file = await createFile(bytes, 10);
    await complete(file, await putParts(file, bytes));
    const renamed = await call(base, 'PATCH', `/v1/files/${file.id}`, {
      token: alice.oat,
      body: { name: 'renamed.pdf', version: '2.0' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'renamed.pdf', version: '2.0' });
    expect((await complete(file, [], bob.oat)).status).toBe(404);

    const gap = await call(base, 'POST', '/v1/files/', {
      token: alice.oat,
      body: {
        name: 'a',
        mime_type: 'text/plain',
        size: 10,
        upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 4 }] },
        service: 'downloadable',
      },
    });
    expect(gap.status).toBe(422);
    expect(gap.body.detail[0].msg).toBe("Value error, the parts must cover the file's 10 bytes exactly");
    const media = await call(base, 'POST', '/v1/files/', {
      token: alice.oat,
      body: { name: 'a', mime_type: 'image/png', size: 1, upload: { parts: [] }, service: 'product_media' },
    });
    expect(media.status).toBe(422);
    const readOnly = await stack.production.admin.createOrganizationAccessToken(alice.organizationId, ['files:read']);
    const forbidden = await call(base, 'POST', '/v1/files/', {
      token: readOnly,
      body: { name: 'a', mime_type: 'text/plain', size: 0, upload: { parts: [] }, service: 'downloadable' },
    });
    expect(forbidden.status).toBe(403);
  });
});
