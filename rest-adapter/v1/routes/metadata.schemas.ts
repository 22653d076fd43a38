import { z } from 'zod';

/**
 * Polar's `MetadataInput` (docs/polar/conventions.md#metadata): at most 50 keys of 1–40 characters; values are strings
 * of 1–500 characters, integers, numbers or booleans. `Metadata` (responses) is the same map unbounded.
 */
export const metadataInput = z
  .record(z.string().min(1).max(40), z.union([z.string().min(1).max(500), z.number(), z.boolean()]))
  .refine(value => Object.keys(value).length <= 50, { message: 'Dictionary should have at most 50 items' });

export const metadataOutput = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
