import { type Config, ConfigError } from '../config.js';

export type ConfigWith<K extends keyof Config> = Config & { readonly [P in K]-?: NonNullable<Config[P]> };

/**
 * The configuration with `keys` known to be set, or a ConfigError naming every one that is not as
 * `<KEY>: required by <requiredBy>` (optional in kit/config.ts because not every process needs them).
 */
export function requireConfig<K extends keyof Config>(
  config: Config,
  keys: readonly K[],
  requiredBy: string,
): ConfigWith<K> {
  const missing = keys.filter(k => !config[k]);
  if (missing.length)
    throw new ConfigError(
      `Invalid configuration:\n${missing.map(k => `  ${k}: required by ${requiredBy}`).join('\n')}`,
    );
  return config as ConfigWith<K>;
}
