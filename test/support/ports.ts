import { readFileSync } from 'node:fs';
import net from 'node:net';

/**
 * A loopback port nothing listens on now, for a process the test starts on a port it must know.
 *
 * It is drawn below the kernel's ephemeral range: a port from `listen(0)` is handed back to that range
 * when the probe closes, and under load another test's outgoing connection or `listen(0)` can take it
 * before the child process binds it ("already in use", seen on CI). Below the range only another
 * test's `freePort` competes, and the draw is random over some twenty thousand ports.
 */
export async function freePort(): Promise<number> {
  const [low] = ephemeralRange();
  const floor = 10_000;
  for (let attempt = 0; attempt < 50 && low - floor > 1_000; attempt++) {
    const port = floor + Math.floor(Math.random() * (low - floor));
    if (await listens(port)) return port;
  }
  return anyPort();
}

function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return [low, high];
  } catch {
    // Not Linux: the IANA dynamic range.
  }
  return [49_152, 65_535];
}

function listens(port: number): Promise<boolean> {
  return new Promise(resolve => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

function anyPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
