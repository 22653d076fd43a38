import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { systemClock } from '../../kit/clock.js';
import { type EnvironmentName, loadConfig } from '../../kit/config.js';
import { startEnvironment } from '../../embedded/environment.js';
import { IdentityAdmin } from '../../subgraphs/identity/admin.js';
import { createMigratedTestDatabase } from '../support/database.js';
import { call, type RunningEnvironment, TEST_SECRET } from '../support/stack.js';
import { freePort } from '../support/ports.js';
import { until } from '../support/until.js';

export const MACHINE_REDIS = 'redis://127.0.0.1:6379';

/**
 * For tests that count exactly through Redis: a reply later than the default 250 ms on a busy machine would
 * make that request count in per-process memory, the fallback for a dead Redis (docs/limits.md).
 */
export const EXACT_REDIS_COUNTING = { REDIS_COMMAND_TIMEOUT_MS: '5000' } as const;

/** One environment as `npm start` builds it, with the given settings and the log lines it wrote. */
export interface LimitedEnvironment extends RunningEnvironment {
  logs: { level: number; msg: string }[];
  close(): Promise<void>;
}

/**
 * Starts one environment on `databaseUrl` (several may share one database, as several processes
 * share one in production) with rate limits on and `settings` on top, on a random loopback port.
 */
export async function startLimited(
  databaseUrl: string,
  settings: Record<string, string>,
  name: EnvironmentName = 'production',
): Promise<LimitedEnvironment> {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', RATE_LIMITS: 'on', ...settings });
  const logs: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  const environment = await startEnvironment({
    name,
    config,
    databaseUrl,
    secret: TEST_SECRET,
    clock: systemClock,
    logger,
  });
  const server = await new Promise<Server>(resolve => {
    const s = environment.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    environment,
    baseUrl: `http://127.0.0.1:${port}`,
    admin: new IdentityAdmin(environment.identity.orm, environment.identity.services, systemClock, TEST_SECRET),
    logs,
    close: async () => {
      server.closeAllConnections();
      await new Promise(resolve => server.close(resolve));
      await environment.close();
    },
  };
}

/** A database for the file, dropped by `drop()`. */
export const testDatabase = (label: string) => createMigratedTestDatabase(label);

/** A Redis key prefix of its own, so parallel runs never count on each other's keys. */
export const uniquePrefix = (label: string) => `test:${label}:${randomUUID()}:`;

/** Deletes this run's keys (never FLUSHALL: the machine's Redis is shared). */
export async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export async function countKeys(url: string, prefix: string): Promise<number> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    let count = 0;
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      count += keys.length;
      cursor = next;
    } while (cursor !== '0');
    return count;
  } finally {
    redis.disconnect();
  }
}

/** `count` requests, at most `concurrency` at a time; the statuses in the order they were sent. */
export async function burst(
  count: number,
  concurrency: number,
  send: (index: number) => Promise<{ status: number }>,
): Promise<number[]> {
  const statuses: number[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const index = next++;
        statuses[index] = (await send(index)).status;
      }
    }),
  );
  return statuses;
}

export function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

export const get = (base: string, path: string, token?: string, headers?: Record<string, string>) =>
  call(base, 'GET', path, { token, headers });

/** A Redis server of the test's own, on a free port, that the test may stop and start again. */
export class OwnRedis {
  private child: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<OwnRedis> {
    const redis = new OwnRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      child.stdout?.on('data', data => {
        output += String(data);
        if (output.includes('Ready to accept connections')) resolve();
      });
      child.once('exit', code => reject(new Error(`redis-server exited with ${code}: ${output}`)));
    });
  }

  /** Freezes the server (SIGSTOP): connections stay open, nothing answers. */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  /** Kills only the server this object started, by its process id. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    child.kill('SIGCONT');
    const exited = new Promise(resolve => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.child = undefined;
  }
}

/**
 * Polls `check` every `pauseMs` until it holds, for up to `attempts` × `pauseMs` (state, not time, is what the
 * test asserts).
 */
export async function eventually(check: () => Promise<boolean>, attempts = 100, pauseMs = 100): Promise<void> {
  if (!(await until(check, attempts * pauseMs, pauseMs))) throw new Error('condition never held');
}

/**
 * /readyz's body once it says `redis: "ok"` (a process connects to Redis a moment after it listens), asked
 * every 50 ms; fails after `attempts` (600: half a minute at the least, for a busy machine).
 */
export async function redisReady(baseUrl: string, attempts = 600): Promise<Record<string, unknown>> {
  let body: Record<string, unknown> = {};
  await eventually(
    async () => {
      body = (await call(baseUrl, 'GET', '/readyz')).body ?? {};
      return body.redis === 'ok';
    },
    attempts,
    50,
  );
  return body;
}
