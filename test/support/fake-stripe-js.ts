import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeStripe } from './fake-stripe.js';

/**
 * A fake Stripe.js on loopback (`STRIPE_JS_URL=<origin>/v3/`), implementing just what our card pages
 * call: `Stripe(pk)`, `elements(options)`, `.create('payment').mount(el)` (a plain card-number input
 * in place of Stripe's iframe), `elements.submit()`, `createConfirmationToken({ elements })` and
 * `handleNextAction({ clientSecret })` (a challenge with "Complete" and "Fail" buttons, like Stripe's
 * test-mode 3-D Secure page). The browser calls this server, which holds the publishable key and
 * forwards to the fake Stripe API (fake-stripe.ts) with the secret key, as Stripe.js calls Stripe's
 * API: so the pages' CSP needs this one origin. `elementsOptions` records what each page asked for.
 */
export class FakeStripeJs {
  readonly elementsOptions: Record<string, unknown>[] = [];
  private server: http.Server | null = null;
  url = '';

  constructor(
    private readonly api: FakeStripe,
    private readonly apiUrl: string,
    readonly publishableKey = 'pk_test_fake',
  ) {}

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', chunk => chunks.push(chunk));
      req.on('end', () => void this.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    await new Promise<void>(resolve => this.server!.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.url = `${origin}/v3/`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>(resolve => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string): Promise<void> {
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type, 'access-control-allow-origin': '*' });
      res.end(body);
    };
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/v3/') return send(200, 'text/javascript', FAKE_STRIPE_JS);
    if (req.method !== 'POST') return send(404, 'text/plain', 'not found');
    const params = new URLSearchParams(raw);
    if (params.get('key') !== this.publishableKey)
      return send(401, 'application/json', JSON.stringify({ error: { message: 'Invalid API Key provided' } }));
    params.delete('key');
    if (path === '/v1/elements_options') {
      this.elementsOptions.push(JSON.parse(params.get('options') ?? '{}'));
      return send(200, 'application/json', '{}');
    }
    const target = {
      '/v1/confirmation_tokens': '/v1/confirmation_tokens',
      '/v1/next_action': '/v1/test_helpers/payment_intents/next_action',
    }[path];
    if (!target) return send(404, 'text/plain', 'not found');
    const answer = await fetch(`${this.apiUrl}${target}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.api.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: params.toString(),
    });
    send(answer.status, 'application/json', await answer.text());
  }
}

/** The script: ES2017, served as Stripe.js would be. */
const FAKE_STRIPE_JS = `'use strict';
(function () {
  var origin = document.currentScript.src.replace(/\\/v3\\/?$/, '');
  function post(path, params) {
    return fetch(origin + path, { method: 'POST', body: new URLSearchParams(params) })
      .then(function (response) { return response.json(); });
  }
  window.Stripe = function (key) {
    return {
      elements: function (options) {
        post('/v1/elements_options', { key: key, options: JSON.stringify(options) });
        var input = null;
        var message = null;
        return {
          create: function () {
            return {
              mount: function (target) {
                if (typeof target === 'string') target = document.querySelector(target);
                input = document.createElement('input');
                input.type = 'text';
                input.setAttribute('aria-label', 'Card number');
                input.setAttribute('autocomplete', 'cc-number');
                message = document.createElement('p');
                message.className = 'fake-stripe-field-error';
                target.appendChild(input);
                target.appendChild(message);
              }
            };
          },
          submit: function () {
            var incomplete = !input || input.value.replace(/\\s/g, '').length < 12;
            message.textContent = incomplete ? 'Your card number is incomplete.' : '';
            return Promise.resolve(incomplete
              ? { error: { type: 'validation_error', message: 'Your card number is incomplete.' } }
              : {});
          },
          _number: function () { return input.value; }
        };
      },
      createConfirmationToken: function (args) {
        return post('/v1/confirmation_tokens', { key: key, 'payment_method_data[card][number]': args.elements._number() })
          .then(function (body) { return body.error ? { error: body.error } : { confirmationToken: body }; });
      },
      handleNextAction: function (args) {
        return new Promise(function (resolve) {
          var dialog = document.createElement('div');
          dialog.setAttribute('role', 'dialog');
          dialog.setAttribute('aria-label', 'Fake 3D Secure');
          ['Complete', 'Fail'].forEach(function (label) {
            var button = document.createElement('button');
            button.type = 'button';
            button.textContent = label + ' authentication';
            button.onclick = function () {
              post('/v1/next_action', { key: key, client_secret: args.clientSecret, outcome: label.toLowerCase() })
                .then(function (intent) {
                  dialog.remove();
                  if (intent.error) return resolve({ error: intent.error });
                  resolve(intent.status === 'succeeded'
                    ? { paymentIntent: intent }
                    : { error: Object.assign({}, intent.last_payment_error, { payment_intent: intent }) });
                });
            };
            dialog.appendChild(button);
          });
          document.body.appendChild(dialog);
        });
      }
    };
  };
})();
`;
