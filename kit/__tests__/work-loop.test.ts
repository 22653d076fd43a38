import pg from 'pg';
import { createTestDatabase } from '../../test/support/database.js';
import { ManualClock } from '../clock.js';
import { workListenerPid } from '../database/work-signals.js';
import { type WorkPass, WorkLoop } from '../work-loop.js';

/**
 * kit/work-loop.ts: a loop that runs a pass, then waits for its next due instant, a wake-up or a
 * notification of its topic on the database. The safety poll is an hour here, so every pass after the
 * first below happens only because something woke the loop.
 */
const HOUR = 3_600_000;
let database: { url: string; drop: () => Promise<void> };
let client: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase('work_loop');
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await database?.drop();
});

/** A step whose passes are counted, each answering what `next` says. */
function countingStep(next: (pass: number) => WorkPass = () => ({ worked: false, nextDueInMs: null })) {
  const step = {
    passes: 0,
    failures: 0,
    run: async () => next(++step.passes),
    failed: () => step.failures++,
  };
  return step;
}

async function until(what: string, condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 10));
  }
}

it('runs a pass at start, then another only when woken', async () => {
  const step = countingStep();
  const loop = new WorkLoop(step, { retryMs: HOUR, errorPauseMs: HOUR, safetyPollMs: HOUR });
  loop.start();
  await until('the first pass', () => step.passes === 1);
  loop.wake();
  await until('the pass the wake-up asked for', () => step.passes === 2);
  await loop.stop();
  expect(step.passes).toBe(2);
});

it('does not lose a wake-up that comes during a pass', async () => {
  let release!: () => void;
  const step = {
    passes: 0,
    run: async (): Promise<WorkPass> => {
      step.passes++;
      if (step.passes === 1) await new Promise<void>(resolve => (release = resolve));
      return { worked: false, nextDueInMs: null };
    },
    failed: () => undefined,
  };
  const loop = new WorkLoop(step, { retryMs: HOUR, errorPauseMs: HOUR, safetyPollMs: HOUR });
  loop.start();
  await until('the first pass to begin', () => release !== undefined);
  loop.wake();
  release();
  await until('the pass after the wake-up', () => step.passes === 2);
  await loop.stop();
});

it('runs again when its next work falls due, and at once while a pass that worked finds more due', async () => {
  const step = countingStep(pass =>
    pass === 1 ? { worked: false, nextDueInMs: 30 } : { worked: pass < 4, nextDueInMs: pass < 4 ? 0 : null },
  );
  const loop = new WorkLoop(step, { retryMs: HOUR, errorPauseMs: HOUR, safetyPollMs: HOUR });
  loop.start();
  await until('the passes up to the one that finds nothing due', () => step.passes === 4);
  await loop.stop();
  expect(step.passes).toBe(4);
});

it('looks again when its clock jumps', async () => {
  const clock = new ManualClock(new Date('2027-01-01T00:00:00Z'));
  const step = countingStep();
  const loop = new WorkLoop(step, { retryMs: HOUR, errorPauseMs: HOUR, safetyPollMs: HOUR, clock });
  loop.start();
  await until('the first pass', () => step.passes === 1);
  clock.advance(86_400_000);
  await until('the pass after the jump', () => step.passes === 2);
  await loop.stop();
  clock.advance(86_400_000);
  expect(step.passes).toBe(2);
});

it('wakes at the commit of a notification of its topic, by any connection, and after its listen connection comes back', async () => {
  const jobs = countingStep();
  const outbox = countingStep();
  const timing = { retryMs: HOUR, errorPauseMs: HOUR, safetyPollMs: HOUR };
  const jobLoop = new WorkLoop(jobs, timing);
  const outboxLoop = new WorkLoop(outbox, timing);
  await jobLoop.listen(database.url, 'test.jobs');
  await outboxLoop.listen(database.url, 'test.outbox');
  try {
    jobLoop.start();
    outboxLoop.start();
    await until('the first passes', () => jobs.passes === 1 && outbox.passes === 1);

    await client.query('begin');
    await client.query(`select pg_notify('background_work', 'test.jobs')`);
    // Not a timing assertion: PostgreSQL holds a notification until its transaction commits.
    await new Promise(r => setTimeout(r, 50));
    expect(jobs.passes).toBe(1);
    await client.query('commit');
    await until('the pass the notification asked for', () => jobs.passes === 2);
    expect(outbox.passes).toBe(1);

    // One connection serves both loops; cut, it listens again and every loop looks once.
    const pid = workListenerPid(database.url);
    expect(pid).toEqual(expect.any(Number));
    await client.query('select pg_terminate_backend($1)', [pid]);
    await until('the passes after the reconnect', () => jobs.passes === 3 && outbox.passes === 2);
    expect(workListenerPid(database.url)).not.toBe(pid);
    await client.query(`select pg_notify('background_work', 'test.outbox')`);
    await until('the outbox pass', () => outbox.passes === 3);
  } finally {
    await jobLoop.stop();
    await outboxLoop.stop();
  }
  // The last loop gone, so is the connection.
  expect(workListenerPid(database.url)).toBeNull();
});
