import http from 'node:http';
import https from 'node:https';
import { checkLiteralHost, ForbiddenTarget, guardedLookup } from './target-policy.js';

/** Polar's request (polar-api.md §6): these headers, POST, 10 s for the whole exchange. */
export const WEBHOOK_USER_AGENT = 'polar.sh webhooks';
export const WEBHOOK_TIMEOUT_MS = 10_000;
const RESPONSE_EXCERPT_BYTES = 2048;

export interface SendResult {
  succeeded: boolean;
  httpCode: number | null;
  /** The first 2 KB of the response body. */
  response: string | null;
  durationMs: number;
  error: string | null;
}

/**
 * Posts one webhook. Success is any 2xx; a 3xx is a failure and is not followed (a redirect could lead
 * to an address the target policy refuses); a timeout, a refused address or a network/TLS error is a
 * failure with `error` set and no status. Never throws.
 */
export class DeliverySender {
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 64 });

  constructor(private readonly allowPrivateTargets: boolean) {}

  async send(target: string, headers: Record<string, string>, body: Buffer): Promise<SendResult> {
    const started = performance.now();
    const done = (partial: Omit<SendResult, 'durationMs'>): SendResult => ({
      ...partial,
      durationMs: Math.round(performance.now() - started),
    });
    let url: URL;
    try {
      url = new URL(target);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported scheme ${url.protocol}`);
      if (!this.allowPrivateTargets) checkLiteralHost(url);
    } catch (error) {
      return done({ succeeded: false, httpCode: null, response: null, error: (error as Error).message });
    }
    return new Promise<SendResult>(resolve => {
      const secure = url.protocol === 'https:';
      const request = (secure ? https : http).request(url, {
        method: 'POST',
        agent: secure ? this.httpsAgent : this.httpAgent,
        headers: { ...headers, 'content-length': String(body.length) },
        ...(this.allowPrivateTargets ? {} : { lookup: guardedLookup as never }),
      });
      let settled = false;
      const finish = (result: Omit<SendResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(done(result));
      };
      const timer = setTimeout(() => {
        request.destroy(new Error(`timed out after ${WEBHOOK_TIMEOUT_MS / 1000} s`));
      }, WEBHOOK_TIMEOUT_MS);
      request.on('error', error => {
        const message = error instanceof ForbiddenTarget ? error.message : `${(error as Error).message}`;
        finish({ succeeded: false, httpCode: null, response: null, error: message });
      });
      request.on('response', response => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        const complete = () => {
          const code = response.statusCode ?? 0;
          const excerpt = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
          finish({
            succeeded: code >= 200 && code < 300,
            httpCode: code,
            response: excerpt,
            error: code >= 300 && code < 400 ? 'redirects are not followed' : null,
          });
        };
        response.on('end', complete);
        response.on('error', complete);
        response.on('aborted', complete);
      });
      request.end(body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
