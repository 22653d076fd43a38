// A webhook receiver for bench/webhooks.ts (and the OTLP sink of bench/observability-cost.ts, which
// needs nothing more), in its own process: answers every POST with 200 once its
// body is read, and prints `listening <port>` when ready.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const server = createServer((req, res) => {
  req.on('data', () => undefined);
  req.on('end', () => {
    res.statusCode = 200;
    res.end('ok');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
