// Compares a JSON answer with a declared type, the way the SDK's user relies on it: every required key
// present, `null` only where the type allows it, the right primitive kinds, literal unions (enums),
// arrays, nested objects and discriminated unions. Keys the type does not declare are allowed (Polar adds
// fields within a version). docs/sdk-compatibility.md#reading-a-failure
import ts from 'typescript';

export interface Mismatch {
  /** Where in the answer, e.g. `$.items[0].prices[1].amount_type`. */
  path: string;
  /** What the declaration wants, in TypeScript's words. */
  expected: string;
  /** What the answer has there (`missing` for an absent required key). */
  found: string;
}

const MAX_DEPTH = 40;

export function conformance(checker: ts.TypeChecker, type: ts.Type, value: unknown, path = '$'): Mismatch[] {
  return check(checker, type, value, path, 0);
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'object') return 'object';
  return `${typeof value} ${String(value)}`;
}

function check(checker: ts.TypeChecker, type: ts.Type, value: unknown, path: string, depth: number): Mismatch[] {
  const f = type.flags;
  const mismatch = (): Mismatch[] => [{ path, expected: checker.typeToString(type), found: describeValue(value) }];
  if (depth > MAX_DEPTH || f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return [];
  if (type.isUnion()) return checkUnion(checker, type, value, path, depth);
  if (type.isIntersection()) return type.types.flatMap(part => check(checker, part, value, path, depth + 1));
  if (f & ts.TypeFlags.Null) return value === null ? [] : mismatch();
  if (f & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) return value === undefined ? [] : mismatch();
  if (type.isStringLiteral() || type.isNumberLiteral()) return value === type.value ? [] : mismatch();
  if (f & ts.TypeFlags.BooleanLiteral) return value === (checker.typeToString(type) === 'true') ? [] : mismatch();
  if (f & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral)) return typeof value === 'string' ? [] : mismatch();
  if (f & ts.TypeFlags.Number) return typeof value === 'number' ? [] : mismatch();
  if (f & ts.TypeFlags.Boolean) return typeof value === 'boolean' ? [] : mismatch();
  if (f & ts.TypeFlags.Object) return checkObject(checker, type, value, path, depth, mismatch);
  return [];
}

function checkObject(
  checker: ts.TypeChecker,
  type: ts.Type,
  value: unknown,
  path: string,
  depth: number,
  mismatch: () => Mismatch[],
): Mismatch[] {
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    if (!Array.isArray(value)) return mismatch();
    const [element] = checker.getTypeArguments(type as ts.TypeReference);
    return element ? value.flatMap((item, i) => check(checker, element, item, `${path}[${i}]`, depth + 1)) : [];
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return mismatch();
  const record = value as Record<string, unknown>;
  const found: Mismatch[] = [];
  for (const property of checker.getPropertiesOfType(type)) {
    const at = `${path}.${property.name}`;
    const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
    const propertyType = checker.getTypeOfSymbol(property);
    if (!(property.name in record)) {
      if (!optional) found.push({ path: at, expected: checker.typeToString(propertyType), found: 'missing' });
      continue;
    }
    found.push(...check(checker, propertyType, record[property.name], at, depth + 1));
  }
  // Records such as `metadata: { [key: string]: string | number | boolean }`.
  for (const index of checker.getIndexInfosOfType(type)) {
    if (!(index.keyType.flags & ts.TypeFlags.String)) continue;
    const declared = new Set(checker.getPropertiesOfType(type).map(property => property.name));
    for (const [key, item] of Object.entries(record)) {
      if (!declared.has(key)) found.push(...check(checker, index.type, item, `${path}.${key}`, depth + 1));
    }
  }
  return found;
}

/**
 * A union matches when one member does. When none does, the report names the member the answer meant:
 * the one whose literal-typed keys (the discriminator, e.g. `type: "license_keys"`) the answer carries,
 * and among those the one with the fewest mismatches.
 */
function checkUnion(checker: ts.TypeChecker, type: ts.UnionType, value: unknown, path: string, depth: number) {
  const results = type.types.map(member => ({ member, found: check(checker, member, value, path, depth + 1) }));
  if (results.some(result => result.found.length === 0)) return [];
  const discriminated = results.filter(result => matchesLiterals(checker, result.member, value));
  const candidates = discriminated.length > 0 ? discriminated : results;
  // Members the value is at least the right kind for (object for an object type) come first.
  const atSelf = (found: Mismatch[]) => (found.some(m => m.path === path) ? 1 : 0);
  const [best] = candidates.sort((a, b) => atSelf(a.found) - atSelf(b.found) || a.found.length - b.found.length);
  // A value of the wrong kind for every member (a string where an object or null is wanted): one mismatch.
  if (best.found.some(m => m.path === path)) {
    return [{ path, expected: checker.typeToString(type), found: describeValue(value) }];
  }
  return best.found;
}

/** Whether every literal-typed key of an object member has the answer's value (a discriminator match). */
function matchesLiterals(checker: ts.TypeChecker, member: ts.Type, value: unknown): boolean {
  if (value === null || typeof value !== 'object' || !(member.flags & ts.TypeFlags.Object)) return false;
  const record = value as Record<string, unknown>;
  let literals = 0;
  for (const property of checker.getPropertiesOfType(member)) {
    const propertyType = checker.getTypeOfSymbol(property);
    if (!propertyType.isStringLiteral()) continue;
    literals += 1;
    if (record[property.name] !== propertyType.value) return false;
  }
  return literals > 0;
}
