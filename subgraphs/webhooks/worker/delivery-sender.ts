import http from 'node:http';
import https from 'node:https';
import { urlToHttpOptions } from 'node:url';
import { checkLiteralHost, ForbiddenTarget, guardedLookup } from './target-policy.js';

/** Polar's request (docs/polar/webhooks.md): these headers, POST, 10 s for the whole exchange. */
export const WEBHOOK_USER_AGENT = 'polar.sh webhooks';
export const WEBHOOK_TIMEOUT_MS = 10_000;
const RESPONSE_EXCERPT_BYTES = 2048;
/** Parsed targets kept (a worker sends to the same few URLs over and over); the cache is reset beyond. */
const MAX_CACHED_TARGETS = 1000;

/** A target URL parsed and checked once: its request options, or why it is refused. */
type Target = { secure: boolean; options: http.RequestOptions } | { refused: string };

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
  private readonly targets = new Map<string, Target>();

  constructor(private readonly allowPrivateTargets: boolean) {}

  async send(target: string, headers: Record<string, string>, body: Buffer): Promise<SendResult> {
    const started = performance.now();
    const done = (partial: Omit<SendResult, 'durationMs'>): SendResult => ({
      ...partial,
      durationMs: Math.round(performance.now() - started),
    });
    const parsed = this.target(target);
    if ('refused' in parsed) return done({ succeeded: false, httpCode: null, response: null, error: parsed.refused });
    const { secure, options } = parsed;
    return new Promise<SendResult>(resolve => {
      const request = (secure ? https : http).request({
        ...options,
        headers: { ...headers, 'content-length': String(body.length) },
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

  /**
   * The request options of a target URL: parsed, checked against the address policy (IP literals and
   * `localhost` here; host names in the socket's own lookup, at every send) and kept, since the answer
   * depends on the URL string alone.
   */
  private target(target: string): Target {
    let parsed = this.targets.get(target);
    if (parsed) return parsed;
    try {
      const url = new URL(target);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported scheme ${url.protocol}`);
      if (!this.allowPrivateTargets) checkLiteralHost(url);
      const secure = url.protocol === 'https:';
      // Only the fields a request needs (what `urlToHttpOptions` gives, less href, hash and the like):
      // the agent copies the options of every request.
      const { hostname, port, path, auth } = urlToHttpOptions(url);
      parsed = {
        secure,
        options: {
          hostname,
          port,
          path,
          ...(auth ? { auth } : {}),
          method: 'POST',
          agent: secure ? this.httpsAgent : this.httpAgent,
          ...(this.allowPrivateTargets ? {} : { lookup: guardedLookup as never }),
        },
      };
    } catch (error) {
      parsed = { refused: (error as Error).message };
    }
    if (this.targets.size >= MAX_CACHED_TARGETS) this.targets.clear();
    this.targets.set(target, parsed);
    return parsed;
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
