import { randomBytes } from 'node:crypto';
import { samplerOf } from '../sampler.js';

const TRACE_IDS = Array.from({ length: 2000 }, () => randomBytes(16).toString('hex'));

/** How many of the 2,000 root requests the sampler keeps. */
function kept(env: NodeJS.ProcessEnv, warnings: string[] = []): number {
  const sampler = samplerOf(env, message => warnings.push(message));
  return TRACE_IDS.filter(id => sampler(undefined, id)).length;
}

describe('OTEL_TRACES_SAMPLER', () => {
  test('unset: every request is traced', () => {
    expect(kept({})).toBe(2000);
  });

  test('always_off traces nothing; traceidratio keeps about its share', () => {
    expect(kept({ OTEL_TRACES_SAMPLER: 'always_off' })).toBe(0);
    const tenth = kept({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' });
    expect(tenth).toBeGreaterThan(100);
    expect(tenth).toBeLessThan(300);
    expect(kept({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' })).toBe(0);
    expect(kept({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '1' })).toBe(2000);
  });

  test('a ratio decides by the trace id alone: every process decides one trace alike', () => {
    const one = samplerOf({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.5' }, () => undefined);
    const other = samplerOf({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.5' }, () => undefined);
    expect(TRACE_IDS.map(id => one(undefined, id))).toEqual(TRACE_IDS.map(id => other(undefined, id)));
  });

  test('parent-based samplers keep the caller’s decision; the others decide for themselves', () => {
    const parentBased = samplerOf({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' }, () => undefined);
    expect(parentBased({ sampled: true }, TRACE_IDS[7])).toBe(true);
    expect(parentBased({ sampled: false }, TRACE_IDS[7])).toBe(false);
    expect(kept({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' })).toBe(0);
    expect(samplerOf({ OTEL_TRACES_SAMPLER: 'always_off' }, () => undefined)({ sampled: true }, TRACE_IDS[7])).toBe(
      false,
    );
    expect(samplerOf({}, () => undefined)({ sampled: false }, TRACE_IDS[7])).toBe(false);
  });

  test('a name or ratio it does not know is said, and the default holds', () => {
    const warnings: string[] = [];
    expect(kept({ OTEL_TRACES_SAMPLER: 'sometimes' }, warnings)).toBe(2000);
    expect(kept({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' }, warnings)).toBe(2000);
    expect(warnings).toEqual([
      'OTEL_TRACES_SAMPLER=sometimes is not a sampler this service knows: parentbased_always_on',
      'OTEL_TRACES_SAMPLER_ARG=1.5 is not a ratio between 0 and 1: every trace is sampled',
    ]);
  });
});
