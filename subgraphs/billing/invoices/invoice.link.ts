import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a link from `GET /v1/orders/{id}/invoice` (or `…/receipt`) opens the PDF. */
export const INVOICE_LINK_TTL_SECONDS = 3600;

/**
 * Short-lived links to an invoice PDF, in place of Polar's S3 presigned URLs: HMAC-SHA256 with the
 * service secret over the order, the expiry and the PDF's checksum, so a link opens exactly that
 * version of the invoice until it expires (a regenerated invoice needs a new link). The same links,
 * signed under another document name, open an order's receipt (docs/receipts.md).
 */
export class InvoiceLinks {
  constructor(
    private readonly secret: string,
    private readonly publicUrl: string,
    /** Which of the order's PDFs: part of the path and of what is signed, so one never opens the other. */
    private readonly document: 'invoice' | 'receipt' = 'invoice',
  ) {}

  url(orderId: string, checksum: string, now: Date): string {
    const expires = Math.floor(now.getTime() / 1000) + INVOICE_LINK_TTL_SECONDS;
    const signature = this.sign(orderId, expires, checksum);
    return `${this.publicUrl.replace(/\/$/, '')}/v1/orders/${orderId}/${this.document}/pdf?expires=${expires}&signature=${signature}`;
  }

  /** Whether `signature` is ours for this order, expiry and checksum, and the expiry is not past. */
  verify(orderId: string, expires: number, signature: string, checksum: string, now: Date): boolean {
    if (!Number.isSafeInteger(expires) || expires * 1000 <= now.getTime()) return false;
    const expected = Buffer.from(this.sign(orderId, expires, checksum));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private sign(orderId: string, expires: number, checksum: string): string {
    return createHmac('sha256', this.secret)
      .update(`${this.document}:${orderId}:${expires}:${checksum}`)
      .digest('base64url');
  }
}
