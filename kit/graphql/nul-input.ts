import { type DocumentNode, GraphQLError, Kind, visit } from 'graphql';

/**
 * PostgreSQL text cannot hold U+0000: a NUL in a string argument would fail in the database and
 * come back as a masked internal error. Subgraphs refuse it before executing, as a client error
 * (the REST edge refuses it earlier still, with a 422: rest-adapter/v1/validation.ts).
 */
const MESSAGE = 'the NUL character (U+0000) is not allowed in strings';

const literalChecks = new WeakMap<DocumentNode, boolean>();

/** A BAD_USER_INPUT error when a string literal of `document` or a variable holds a NUL, else undefined. */
export function nulInputError(document: DocumentNode, variables?: Record<string, unknown>): GraphQLError | undefined {
  let inLiterals = literalChecks.get(document);
  if (inLiterals === undefined) {
    inLiterals = false;
    visit(document, {
      [Kind.STRING](node) {
        if (node.value.includes('\u0000')) inLiterals = true;
      },
    });
    literalChecks.set(document, inLiterals);
  }
  // Most variables hold no NUL: one walk that builds no paths first, the path only for variables that have one.
  const variable = variables && holdsNul(variables) ? nulPath(variables) : undefined;
  if (!inLiterals && variable === undefined) return undefined;
  const where = variable === undefined ? 'A string argument' : `Variable "$${variable}"`;
  return new GraphQLError(`${where}: ${MESSAGE}`, { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
}

/** Whether a string or key anywhere in `root` holds a NUL, iteratively (variables can be deep). */
function holdsNul(root: Record<string, unknown>): boolean {
  const stack: unknown[] = [root];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const key in value) {
        if (key.includes('\u0000')) return true;
        stack.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/** The dotted path of the first string (or key) holding a NUL, iteratively (variables can be deep). */
function nulPath(root: Record<string, unknown>): string | undefined {
  const stack: [unknown, string][] = Object.entries(root).map(([k, v]) => [v, k]);
  while (stack.length) {
    const [value, path] = stack.pop() as [unknown, string];
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key.includes('\u0000')) return path;
        stack.push([child, `${path}.${key}`]);
      }
    }
  }
  return undefined;
}
