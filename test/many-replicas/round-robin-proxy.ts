import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small HTTP proxy on loopback standing in for a Kubernetes Service in front of two replicas: each
 * request goes to the next backend in turn, so both replicas of a pair really serve. A backend that
 * refuses the connection (killed: nothing was sent, nothing can have happened) is skipped for the
 * next one, as a Service stops routing to a pod that is gone; a backend that drops a request it was
 * sent is not retried (it may have acted on it): the caller's connection is dropped too, so it sees
 * what a client of the dead pod sees, no answer. Each request opens its own connection, so a refused
 * connection is never confused with a kept-alive one that the backend closed mid-request.
 */
export class RoundRobinProxy {
  private readonly backends: string[] = [];
  private turn = 0;
  /** Backends that refused a connection, until when they are passed over. */
  private readonly downUntil = new Map<string, number>();
  private readonly server = http.createServer((req, res) => this.handle(req, res));
  /** Requests each backend answered (its headers came back), by backend URL. */
  readonly answered = new Map<string, number>();
  url = '';

  constructor(readonly name: string) {}

  /** Listens on a free loopback port; backends may be added later (the parts are told this URL first). */
  async listen(): Promise<this> {
    await new Promise<void>(resolve => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  add(backend: string): void {
    this.backends.push(backend);
    this.answered.set(backend, 0);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>(resolve => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    // The body is read first, so that a refused connection can be tried again on the next backend.
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => this.forward(req, res, Buffer.concat(chunks), new Set()));
    req.on('error', () => res.destroy());
  }

  /**
   * The next backend in turn that this request has not been refused by, skipping those that refused a
   * connection in the last second (a Service drops a pod that is gone from its endpoints).
   */
  private pick(refused: Set<string>): string | undefined {
    const now = Date.now();
    const candidates = this.backends.filter(b => !refused.has(b));
    const up = candidates.filter(b => (this.downUntil.get(b) ?? 0) <= now);
    const from = up.length > 0 ? up : candidates;
    if (from.length === 0) return undefined;
    return from[this.turn++ % from.length];
  }

  private forward(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, refused: Set<string>): void {
    const backend = this.pick(refused);
    if (!backend) {
      res.destroy();
      return;
    }
    const target = new URL(backend);
    const upstream = http.request({
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
      agent: false,
    });
    upstream.on('response', answer => {
      this.answered.set(backend, (this.answered.get(backend) ?? 0) + 1);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on('aborted', () => res.destroy());
      answer.on('error', () => res.destroy());
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' && !res.headersSent) {
        this.downUntil.set(backend, Date.now() + 1000);
        this.forward(req, res, body, new Set([...refused, backend]));
      } else res.destroy();
    });
    res.on('close', () => {
      // The caller went away: so does the request upstream (a request in flight is not cut otherwise).
      if (!res.writableFinished) upstream.destroy();
    });
    upstream.end(body);
  }
}
