import type { Sampler } from '@opentelemetry/sdk-trace';

type SamplerKit = Pick<
  typeof import('@opentelemetry/sdk-trace'),
  'AlwaysOnSampler' | 'AlwaysOffSampler' | 'TraceIdRatioBasedSampler' | 'ParentBasedSampler'
>;

/**
 * The sampler that OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG name, with OpenTelemetry's meanings
 * (docs/observability.md#traces): `always_on`, `always_off`, `traceidratio`, and the same three under
 * `parentbased_` (the default is `parentbased_always_on`: every request traced, a caller's decision kept).
 * A name it does not know falls back to the default and a ratio outside 0..1 to 1, as the specification
 * says; `warn` says so. The SDK this service uses does not read these variables itself.
 */
export function samplerOf(env: NodeJS.ProcessEnv, sdk: SamplerKit, warn: (message: string) => void): Sampler {
  const name = (env.OTEL_TRACES_SAMPLER || 'parentbased_always_on').trim().toLowerCase();
  const ratio = () => {
    const given = env.OTEL_TRACES_SAMPLER_ARG;
    const value = given === undefined || given === '' ? 1 : Number(given);
    if (Number.isFinite(value) && value >= 0 && value <= 1) return value;
    warn(`OTEL_TRACES_SAMPLER_ARG=${given} is not a ratio between 0 and 1: every trace is sampled`);
    return 1;
  };
  const roots: Record<string, () => Sampler> = {
    always_on: () => new sdk.AlwaysOnSampler(),
    always_off: () => new sdk.AlwaysOffSampler(),
    traceidratio: () => new sdk.TraceIdRatioBasedSampler(ratio()),
  };
  if (roots[name]) return roots[name]();
  const parentBased = name.startsWith('parentbased_') ? roots[name.slice('parentbased_'.length)] : undefined;
  if (!parentBased) warn(`OTEL_TRACES_SAMPLER=${name} is not a sampler this service knows: parentbased_always_on`);
  return new sdk.ParentBasedSampler({ root: (parentBased ?? roots.always_on)() });
}
