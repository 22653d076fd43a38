/**
 * Whether a new span is sampled: given its caller's context (none for a root span) and its trace id.
 */
export type Sampler = (parent: { sampled: boolean } | undefined, traceId: string) => boolean;

const alwaysOn: Sampler = () => true;
const alwaysOff: Sampler = () => false;

/**
 * Keeps `ratio` of the traces, decided by the trace id alone, so that every process deciding on one trace
 * decides alike: its last 8 hex digits (random in every W3C trace id) read as a fraction of 2^32.
 */
function traceIdRatio(ratio: number): Sampler {
  const bound = ratio * 2 ** 32;
  return (_parent, traceId) => Number.parseInt(traceId.slice(-8), 16) < bound;
}

/**
 * The sampler that OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG name, with OpenTelemetry's meanings
 * (docs/observability.md#traces): `always_on`, `always_off`, `traceidratio`, and the same three under
 * `parentbased_` (the default is `parentbased_always_on`: every request traced, a caller's decision kept).
 * A name it does not know falls back to the default and a ratio outside 0..1 to 1, as the specification
 * says; `warn` says so.
 */
export function samplerOf(env: NodeJS.ProcessEnv, warn: (message: string) => void): Sampler {
  const name = (env.OTEL_TRACES_SAMPLER || 'parentbased_always_on').trim().toLowerCase();
  const ratio = () => {
    const given = env.OTEL_TRACES_SAMPLER_ARG;
    const value = given === undefined || given === '' ? 1 : Number(given);
    if (Number.isFinite(value) && value >= 0 && value <= 1) return value;
    warn(`OTEL_TRACES_SAMPLER_ARG=${given} is not a ratio between 0 and 1: every trace is sampled`);
    return 1;
  };
  const roots: Record<string, () => Sampler> = {
    always_on: () => alwaysOn,
    always_off: () => alwaysOff,
    traceidratio: () => traceIdRatio(ratio()),
  };
  if (roots[name]) return roots[name]();
  const parentBased = name.startsWith('parentbased_') ? roots[name.slice('parentbased_'.length)] : undefined;
  if (!parentBased) warn(`OTEL_TRACES_SAMPLER=${name} is not a sampler this service knows: parentbased_always_on`);
  const root = (parentBased ?? roots.always_on)();
  return (parent, traceId) => (parent ? parent.sampled : root(parent, traceId));
}
