import pg from 'pg';
import { createTestDatabase } from '../../test/support/database.js';
import { ManualClock } from '../clock.js';
import { workListenerPid } from '../database/work-signals.js';
import { BackgroundWork, type BackgroundWorker, type Enrolment, type WorkPass } from '../background/background-work.js';

/**
 * kit/background/background-work.ts: the spine runs each worker's pass, then waits for its next due
 * instant, a wake-up or a notification of its topic on the database. The safety poll is an hour here,
 * so every pass after the first below happens only because something woke the worker.
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

type Step = { run(): Promise<WorkPass>; failed(error: unknown): void };
type Timing = Pick<BackgroundWorker, 'retryMs' | 'errorPauseMs' | 'safetyPollMs' | 'clock'>;

/** `step` as a worker of `spine` on `topics` (the shape the old per-worker loop had). */
function enrol(spine: BackgroundWork, step: Step, timing: Timing, topics: string[] = []): Enrolment {
  return spine.enrol({ name: 'test', topics, runDue: () => step.run(), failed: e => step.failed(e), ...timing });
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
  const loop = enrol(new BackgroundWork(), step, { retryMs: HOUR, errorPauseMs: HOUR, safetyPollMs: HOUR });
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
  const loop = enrol(new BackgroundWork(), step, { retryMs: HOUR, errorPauseMs: HOUR, safetyPollMs: HOUR });
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
  const loop = enrol(new BackgroundWork(), step, { retryMs: HOUR, errorPauseMs: HOUR, safetyPollMs: HOUR });
  loop.start();
  await until('the passes up to the one that finds nothing due', () => step.passes === 4);
  await loop.stop();
  expect(step.passes).toBe(4);
});

it('looks again when its clock jumps', async () => {
  const clock = new ManualClock(new Date('2027-01-01T00:00:00Z'));
  const step = countingStep();
  const loop = enrol(new BackgroundWork(), step, { retryMs: HOUR, errorPauseMs: HOUR, safetyPollMs: HOUR, clock });
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
  const spine = new BackgroundWork();
  const jobLoop = enrol(spine, jobs, timing, ['test.jobs']);
  const outboxLoop = enrol(spine, outbox, timing, ['test.outbox']);
  await jobLoop.listen(database.url);
  await outboxLoop.listen(database.url);
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

it('runs the passes of different workers side by side: a long pass holds up only its own worker', async () => {
  const spine = new BackgroundWork();
  let release!: () => void;
  const slow = {
    passes: 0,
    run: async (): Promise<WorkPass> => {
      slow.passes++;
      await new Promise<void>(resolve => (release = resolve));
      return { worked: false, nextDueInMs: null };
    },
    failed: () => undefined,
  };
  const quick = countingStep();
  const timing = { retryMs: HOUR, errorPauseMs: HOUR, safetyPollMs: HOUR };
  const slowLoop = enrol(spine, slow, timing);
  const quickLoop = enrol(spine, quick, timing);
  slowLoop.start();
  quickLoop.start();
  await until('both first passes', () => slow.passes === 1 && quick.passes === 1);
  quickLoop.wake();
  await until('the quick worker to run again while the slow pass is under way', () => quick.passes === 2);
  expect(slow.passes).toBe(1);
  release();
  await Promise.all([slowLoop.stop(), quickLoop.stop()]);
});

it('stop waits for the pass in flight, and no pass follows it', async () => {
  const spine = new BackgroundWork();
  let release!: () => void;
  let finished = false;
  const step = {
    passes: 0,
    run: async (): Promise<WorkPass> => {
      step.passes++;
      await new Promise<void>(resolve => (release = resolve));
      finished = true;
      return { worked: true, nextDueInMs: 0 };
    },
    failed: () => undefined,
  };
  const loop = enrol(spine, step, { retryMs: HOUR, errorPauseMs: HOUR, safetyPollMs: HOUR });
  loop.start();
  await until('the pass to begin', () => release !== undefined);
  let stopped = false;
  const stopping = loop.stop().then(() => (stopped = true));
  loop.wake();
  await new Promise(r => setTimeout(r, 20));
  expect(stopped).toBe(false);
  release();
  await stopping;
  expect(finished).toBe(true);
  expect(step.passes).toBe(1);
  expect(spine.workerNames).toEqual([]);
});

it('after a pass that threw, tries again after the error pause', async () => {
  const spine = new BackgroundWork();
  const step = countingStep(pass => {
    if (pass === 1) throw new Error('database down');
    return { worked: false, nextDueInMs: null };
  });
  const loop = enrol(spine, step, { retryMs: HOUR, errorPauseMs: 20, safetyPollMs: HOUR });
  loop.start();
  await until('the pass after the error pause', () => step.passes === 2);
  expect(step.failures).toBe(1);
  await loop.stop();
});

it('run listens, then starts, once: calls made together or later start no second pass', async () => {
  const step = countingStep();
  const loop = enrol(new BackgroundWork(), step, { retryMs: HOUR, errorPauseMs: HOUR, safetyPollMs: HOUR }, [
    'test.run_once',
  ]);
  await Promise.all([loop.run(database.url), loop.run(database.url)]);
  await until('the first pass', () => step.passes === 1);
  await loop.run(database.url);
  // Listening: a notification of its topic wakes it (the only way to a second pass here).
  await client.query(`select pg_notify('background_work', 'test.run_once')`);
  await until('the pass the notification asked for', () => step.passes === 2);
  await new Promise(r => setTimeout(r, 100));
  expect(step.passes).toBe(2);
  await loop.stop();
});
