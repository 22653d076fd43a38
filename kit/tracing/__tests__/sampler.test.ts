import { randomBytes } from 'node:crypto';
import * as sdk from '@opentelemetry/sdk-trace';
import { context, SpanKind, trace, TraceFlags } from '@opentelemetry/api';
import { samplerOf } from '../sampler.js';

const TRACE_IDS = Array.from({ length: 2000 }, () => randomBytes(16).toString('hex'));

/** How many of the 2,000 root requests the sampler keeps. */
function kept(env: NodeJS.ProcessEnv, warnings: string[] = []): number {
  const sampler = samplerOf(env, sdk, message => warnings.push(message));
  return TRACE_IDS.filter(
    id =>
      sampler.shouldSample(context.active(), id, 'GET /v1/products/', SpanKind.SERVER, {}, []).decision ===
      sdk.SamplingDecision.RECORD_AND_SAMPLED,
  ).length;
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
  });

  test('parent-based samplers keep the caller’s decision', () => {
    const sampler = samplerOf({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' }, sdk, () => undefined);
    const parent = trace.setSpanContext(context.active(), {
      traceId: TRACE_IDS[7],
      spanId: '00000000000000aa',
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
    });
    const decision = sampler.shouldSample(parent, TRACE_IDS[7], 'POST /graphql', SpanKind.SERVER, {}, []).decision;
    expect(decision).toBe(sdk.SamplingDecision.RECORD_AND_SAMPLED);
    expect(kept({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' })).toBe(0);
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
