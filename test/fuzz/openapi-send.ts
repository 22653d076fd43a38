import { request as httpRequest } from 'node:http';
import type { RequestCase } from './openapi-requests.js';

/** Sending generated requests byte for byte, and printing a failing one the way a person would retype it. */

/** How a failing case is printed: the request a person would type into curl. */
export function describeCase(c: RequestCase, clipAt = 300): string {
  const clip = (text: string) => (text.length > clipAt ? `${text.slice(0, clipAt)}…(${text.length} chars)` : text);
  const lines = [`${c.method} ${clip(c.path)}${c.query ? `?${clip(c.query)}` : ''}  (token: ${c.token})`];
  for (const [k, v] of Object.entries(c.headers)) lines.push(`${k}: ${v}`);
  if (c.body) {
    const text = c.body.toString('utf8');
    lines.push(`body (${c.body.length} bytes): ${clip(text)}`);
  }
  return lines.join('\n  ');
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: any;
}

/**
 * Sends a case byte for byte (fetch would normalise the path and re-encode the query), with the
 * credential's headers (`Authorization`, or a session `Cookie`).
 */
export function send(baseUrl: string, c: RequestCase, credential: Record<string, string>): Promise<Reply> {
  const url = new URL(baseUrl);
  const headers: Record<string, string | number> = { ...c.headers, ...credential };
  if (c.body) headers['content-length'] = c.body.length;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: c.method,
        path: `${c.path}${c.query ? `?${c.query}` : ''}`,
        headers,
        // A fresh connection each time: a kept-alive socket the server is just closing is a client
        // ECONNRESET, not a finding.
        agent: false,
      },
      res => {
        const chunks: Buffer[] = [];
        res.on('data', chunk => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: any;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = text;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(c.body);
  });
}
