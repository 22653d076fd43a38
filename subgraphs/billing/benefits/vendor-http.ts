import { BenefitActionRequired, VendorUnavailable } from './benefit-integration.errors.js';

/** A vendor call that never hangs a grant job for long: the job holds a transaction meanwhile. */
const TIMEOUT_MS = 10_000;

export interface VendorRequest {
  vendor: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/**
 * One call to a vendor's HTTP API, classified as Polar's strategies do: no answer, 429 or 5xx is
 * `VendorUnavailable` (retried by the job queue); another 4xx is `BenefitActionRequired` ("Discord
 * error: …", stored on the grant); a 2xx answers its JSON body (or null).
 */
export async function vendorCall(request: VendorRequest): Promise<Record<string, any> | null> {
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: {
        ...request.headers,
        ...(request.body !== undefined ? { 'content-type': 'application/json; charset=utf-8' } : {}),
      },
      body: request.body !== undefined ? JSON.stringify(request.body) : undefined,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new VendorUnavailable(
      `${request.vendor} did not answer: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const text = await response.text().catch(() => '');
  if (response.status === 429 || response.status >= 500)
    throw new VendorUnavailable(`${request.vendor} answered ${response.status}: ${text.slice(0, 500)}`);
  if (!response.ok) throw new BenefitActionRequired(`${request.vendor} error: ${text.slice(0, 500)}`);
  if (!text) return null;
  try {
    return JSON.parse(text) as Record<string, any>;
  } catch {
    return null;
  }
}

/** `base` + path segments, each escaped: account ids come from customers. */
export function vendorUrl(base: string, ...segments: string[]): string {
  return `${base.replace(/\/$/, '')}/${segments.map(encodeURIComponent).join('/')}`;
}
