import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

const MAX_MINOR_UNITS = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Money in integer minor units (cents). The domain keeps `bigint` (as PostgreSQL's `bigint` columns
 * do); on the wire it is a plain JSON number, as Polar sends it. Values beyond
 * `Number.MAX_SAFE_INTEGER` cannot be represented exactly in JSON numbers, so they are refused in both
 * directions rather than silently rounded.
 */
export const MinorUnits = new GraphQLScalarType<bigint, number>({
  name: 'MinorUnits',
  description: 'An amount of money in integer minor units (cents), serialized as a JSON number (at most 2^53 - 1).',
  // NOTE: no BigInt is made for a bigint within range: a page of 100 orders serialises some 1,500 amounts.
  serialize(value) {
    if (typeof value === 'bigint') {
      if (value > MAX_MINOR_UNITS || value < -MAX_MINOR_UNITS)
        throw new GraphQLError('MinorUnits value is beyond Number.MAX_SAFE_INTEGER');
      return Number(value);
    }
    const n =
      typeof value === 'number' && Number.isInteger(value)
        ? BigInt(value)
        : typeof value === 'string' && /^-?\d+$/.test(value)
          ? BigInt(value)
          : null;
    if (n === null) throw new GraphQLError(`MinorUnits cannot represent ${String(value)}`);
    if (n > MAX_MINOR_UNITS || n < -MAX_MINOR_UNITS)
      throw new GraphQLError('MinorUnits value is beyond Number.MAX_SAFE_INTEGER');
    return Number(n);
  },
  parseValue(value) {
    if (typeof value !== 'number' || !Number.isSafeInteger(value))
      throw new GraphQLError('MinorUnits must be a safe integer');
    return BigInt(value);
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.INT) throw new GraphQLError('MinorUnits must be an integer');
    const n = BigInt(ast.value);
    if (n > MAX_MINOR_UNITS || n < -MAX_MINOR_UNITS)
      throw new GraphQLError('MinorUnits value is beyond Number.MAX_SAFE_INTEGER');
    return n;
  },
});

/** Polar's `Metadata`: an object of string → string | integer | number | boolean. */
export const Metadata = new GraphQLScalarType({
  ...GraphQLJSONObject.toConfig(),
  name: 'Metadata',
  description: "A map of string keys to string, number or boolean values (Polar's metadata).",
});

export type MetadataValue = string | number | boolean;
