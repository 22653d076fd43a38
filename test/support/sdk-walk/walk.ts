// One pass of SDK 1.0.1 over a set of methods: each is called through the real client and its answer is
// compared with the method's declared return type (test/support/sdk-types/). The result per method is a
// short list of lines a failing test prints as a diff (docs/sdk-compatibility.md#reading-a-failure).
import type ts from 'typescript';
import { conformance } from '../sdk-types/conformance.js';
import { methodResultType, type SdkDeclarations } from '../sdk-types/declarations.js';
import type { Caller, WalkCall } from './calls.js';
import type { WalkWorld } from './seed.js';

/** `['ok']`, `['HTTP 404']`, or one line per mismatch, array positions folded to `[*]`. */
export type Outcome = string[];

type Client = Record<string, unknown>;

export async function walkMethods(
  declarations: SdkDeclarations,
  clients: Record<Caller, Client>,
  calls: Record<string, WalkCall>,
  world: WalkWorld,
): Promise<Record<string, Outcome>> {
  const outcomes: Record<string, Outcome> = {};
  for (const [method, call] of Object.entries(calls)) {
    const type = methodResultType(declarations, method);
    if (!type) {
      outcomes[method] = ['not in this version'];
      continue;
    }
    const target = resolve(clients[call.as ?? 'organization'], method);
    let answer: unknown;
    try {
      answer = await target(...call.args(world));
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      outcomes[method] = [status ? `HTTP ${status}` : `threw ${(error as Error).message}`];
      continue;
    }
    const lines = mismatchLines(declarations, type, answer);
    outcomes[method] = lines.length === 0 ? ['ok'] : lines;
  }
  return outcomes;
}

/** Where `value` departs from `type`, one line each, array positions folded to `[*]`, sorted, no repeats. */
export function mismatchLines(declarations: SdkDeclarations, type: ts.Type, value: unknown): string[] {
  const lines = conformance(declarations.checker, type, value).map(
    m => `${m.path.replace(/\[\d+\]/g, '[*]')}: expected ${m.expected}, found ${m.found}`,
  );
  return [...new Set(lines)].sort();
}

/** The client's method at a dotted path, bound to its service. */
export function resolve(client: Client, method: string): (...args: unknown[]) => Promise<unknown> {
  const parts = method.split('.');
  const name = parts.pop() as string;
  const owner = parts.reduce<Record<string, unknown>>((at, part) => at[part] as Record<string, unknown>, client);
  return (owner[name] as (...args: unknown[]) => Promise<unknown>).bind(owner);
}
