import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake answers one number: VIES's verdict, one of its error codes, or a bare HTTP status. */
export type FakeViesAnswer = 'valid' | 'invalid' | { error: string; status?: number } | { status: number };

/**
 * The European Commission's VIES REST API on loopback, as it answers `POST /check-vat-number`
 * `{countryCode, vatNumber}`: `{valid, requestIdentifier, name, address, …}`, or
 * `{actionSucceed: false, errorWrappers: [{error}]}` (MS_UNAVAILABLE, TIMEOUT, …). Numbers answer
 * `defaultAnswer` unless `answers` says otherwise (keyed `DE136695976`); `delayMs` makes every answer
 * late, for timeouts. Records each request. Tests only: no network.
 */
export class FakeVies {
  readonly requests: { countryCode: string; vatNumber: string }[] = [];
  readonly answers = new Map<string, FakeViesAnswer>();
  defaultAnswer: FakeViesAnswer = 'valid';
  delayMs = 0;
  private server!: Server;

  /** Starts on 127.0.0.1 and answers the base URL to configure as `VIES_URL`. */
  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', c => chunks.push(c));
      req.on('end', () => {
        const send = (status: number, body: unknown) => {
          if (res.destroyed) return;
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        if (req.method !== 'POST' || req.url !== '/check-vat-number') return send(404, { error: 'not found' });
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
        this.requests.push({ countryCode: body.countryCode, vatNumber: body.vatNumber });
        const answer = this.answers.get(`${body.countryCode}${body.vatNumber}`) ?? this.defaultAnswer;
        setTimeout(() => send(...this.reply(body, answer)), this.delayMs);
      });
    });
    await new Promise<void>(resolve => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>(resolve => this.server.close(() => resolve()));
  }

  private reply(body: { countryCode: string; vatNumber: string }, answer: FakeViesAnswer): [number, unknown] {
    if (typeof answer === 'object' && 'error' in answer)
      return [answer.status ?? 200, { actionSucceed: false, errorWrappers: [{ error: answer.error }] }];
    if (typeof answer === 'object') return [answer.status, { message: 'unavailable' }];
    const valid = answer === 'valid';
    return [
      200,
      {
        countryCode: body.countryCode,
        vatNumber: body.vatNumber,
        requestDate: new Date().toISOString(),
        valid,
        requestIdentifier: valid ? `WAPIAAAA${this.requests.length}` : '',
        name: valid && body.countryCode !== 'DE' ? 'ACME SAS' : '---',
        address: valid && body.countryCode !== 'DE' ? '1 RUE DE LA PAIX\n75002 PARIS' : '---',
      },
    ];
  }
}
