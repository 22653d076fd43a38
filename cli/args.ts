import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import type { EnvironmentName } from '../kit/config.js';
import { parseDuration } from '../kit/duration.js';
import { ALL_SCOPES, isScope } from '../kit/scopes.js';
import { UsageError } from './errors.js';

export { UsageError };

/** Options every command accepts. */
export const GLOBAL_OPTIONS = {
  env: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsOptionsConfig;

export type OptionValues = Record<string, string | boolean | undefined>;

/** Strict parsing: unknown options, missing values and stray positionals are usage errors. */
export function parseOptions(args: string[], options: ParseArgsOptionsConfig): OptionValues {
  try {
    const { values } = parseArgs({
      args,
      options: { ...GLOBAL_OPTIONS, ...options },
      strict: true,
      allowPositionals: false,
    });
    return values as OptionValues;
  } catch (error) {
    // node:util's messages are long and mention internals ("To specify an option argument starting with
    // a dash use --foo=-XYZ"); keep the first sentence.
    const message = (error as Error).message.split('\n')[0].replace(/\. To specify .*$/, '.');
    throw new UsageError(message);
  }
}

export function requireString(values: OptionValues, name: string): string {
  const value = optionalString(values, name);
  if (value === undefined) throw new UsageError(`--${name} is required`);
  return value;
}

export function optionalString(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} needs a value`);
  return value.trim();
}

export function environmentOf(values: OptionValues): EnvironmentName {
  const env = optionalString(values, 'env') ?? 'production';
  if (env !== 'production' && env !== 'sandbox')
    throw new UsageError(`--env must be production or sandbox (got "${env}")`);
  return env;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function requireId(values: OptionValues, name: string): string {
  const id = requireString(values, name);
  if (!UUID.test(id)) throw new UsageError(`--${name} must be an id (a UUID), got "${id}"`);
  return id.toLowerCase();
}

/** `"a b"`, `"a,b"` or `all`; every scope must be one of ALL_SCOPES. */
export function scopesOf(values: OptionValues): string[] {
  const text = requireString(values, 'scopes');
  if (text === 'all') return [...ALL_SCOPES];
  const scopes = [...new Set(text.split(/[\s,]+/).filter(Boolean))];
  const unknown = scopes.filter(s => !isScope(s));
  if (unknown.length) throw new UsageError(`unknown scope${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
  return scopes;
}

/** An ISO 8601 duration such as P30D or PT12H. */
export function durationOf(values: OptionValues, name: string): string | undefined {
  const text = optionalString(values, name);
  if (text !== undefined && !parseDuration(text))
    throw new UsageError(`--${name} must be an ISO 8601 duration such as P30D or PT12H (got "${text}")`);
  return text;
}

export function oneOf<T extends string>(values: OptionValues, name: string, allowed: readonly T[], fallback: T): T {
  const value = optionalString(values, name) ?? fallback;
  if (!allowed.includes(value as T))
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')} (got "${value}")`);
  return value as T;
}
