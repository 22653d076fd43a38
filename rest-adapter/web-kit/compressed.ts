import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Request, Response } from 'express';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * A body that never changes while the process runs (the OpenAPI document, the docs page and its assets),
 * sent the way a browser loads it fastest: compressed (Brotli or gzip, whichever the request accepts,
 * encoded once on first use and kept), with a strong ETag so a revisit costs a 304, and the caller's
 * Cache-Control. Node's own zlib does the work: no package. See docs/performance.md#the-docs-page.
 */
export interface StaticBody {
  send(req: Request, res: Response): Promise<void>;
}

/** Encodings in the order we prefer them. Brotli quality 5: ~30 KB for the 980 KB document, in ~20 ms. */
const ENCODINGS = ['br', 'gzip'] as const;
type Encoding = (typeof ENCODINGS)[number];

export function staticBody(body: () => string | Buffer, options: { type: string; cacheControl: string }): StaticBody {
  let identity: Buffer | undefined;
  let etag: string | undefined;
  const encoded = new Map<Encoding, Promise<Buffer>>();
  const raw = () => {
    if (!identity) {
      const value = body();
      identity = Buffer.isBuffer(value) ? value : Buffer.from(value);
      etag = `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`;
    }
    return identity;
  };
  const encode = (encoding: Encoding): Promise<Buffer> => {
    let pending = encoded.get(encoding);
    if (!pending) {
      const buffer = raw();
      pending =
        encoding === 'br'
          ? brotli(buffer, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: buffer.length,
              },
            })
          : gzip(buffer, { level: 9 });
      encoded.set(encoding, pending);
    }
    return pending;
  };
  return {
    async send(req, res) {
      const identityBody = raw();
      res.set({ 'Cache-Control': options.cacheControl, ETag: etag! });
      res.vary('Accept-Encoding'); // added to what the caller varies on (the explorer: Accept)
      res.type(options.type);
      if (matches(req.get('if-none-match'), etag!)) {
        res.status(304).end();
        return;
      }
      const encoding = preferredEncoding(req.get('accept-encoding'));
      if (!encoding || identityBody.length < 1024) {
        res.send(identityBody);
        return;
      }
      const compressed = await encode(encoding);
      res.set('Content-Encoding', encoding);
      res.send(compressed);
    },
  };
}

/** `If-None-Match: "a", "b"` or `*` against our ETag (weak forms compare equal, as RFC 9110 says for GET). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some(tag => tag.trim().replace(/^W\//, '') === etag);
}

/** The first of br, gzip that `Accept-Encoding` accepts with a quality above 0; null for none. */
export function preferredEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map(p => p.trim()).find(p => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  for (const encoding of ENCODINGS) {
    const quality = accepted.get(encoding) ?? (accepted.has('*') ? accepted.get('*')! : 0);
    if (quality > 0) return encoding;
  }
  return null;
}
