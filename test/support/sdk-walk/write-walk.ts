// One pass of SDK 1.0.1 over its write methods (test/sdk/v1-write-walk.sdk.test.ts): each is called with
// a valid body and its answer compared with its declared type, then with `bad` arguments, whose refusal
// must be the error class the SDK maps with a body of that class's declared type.
import { errorBodyType, methodResultType, type SdkDeclarations } from '../sdk-types/declarations.js';
import { mismatchLines, type Outcome, resolve } from './walk.js';
import type { Made, WriteCall, WriteCaller } from './write-call.js';
import type { WriteWorld } from './write-seed.js';

type Client = Record<string, unknown>;

interface SdkError {
  name?: string;
  statusCode?: number;
  error?: unknown;
  message?: string;
}

export async function walkWrites(
  declarations: SdkDeclarations,
  clients: Record<WriteCaller, Client>,
  clientWith: (token: string) => Client,
  calls: Record<string, WriteCall>,
  world: WriteWorld,
): Promise<Record<string, Outcome>> {
  const outcomes: Record<string, Outcome> = {};
  const made: Made = {};
  for (const [method, call] of Object.entries(calls)) {
    const type = methodResultType(declarations, method);
    if (!type) {
      outcomes[method] = ['not in this version'];
      continue;
    }
    const target = resolve(call.token ? clientWith(call.token(made)) : clients[call.as ?? 'organization'], method);
    const lines: string[] = [];
    try {
      const answer = await target(...(await call.args(world, made)));
      made[method] = answer;
      const mismatches = mismatchLines(declarations, type, answer);
      lines.push(...(mismatches.length ? mismatches : ['ok']));
    } catch (error) {
      const { statusCode, name, message } = error as SdkError;
      lines.push(statusCode ? `HTTP ${statusCode} ${name}` : `threw ${message}`);
    }
    if (call.bad) lines.push(...(await refusal(declarations, target, call.bad, world, made)));
    outcomes[method] = lines;
  }
  return outcomes;
}

/** `bad: <class>` when the SDK threw the expected class with a body of its type; else what it did. */
async function refusal(
  declarations: SdkDeclarations,
  target: (...args: unknown[]) => Promise<unknown>,
  bad: NonNullable<WriteCall['bad']>,
  world: WriteWorld,
  made: Made,
): Promise<string[]> {
  const expected = bad.error ?? 'HTTPValidationError';
  try {
    await target(...(await bad.args(world, made)));
    return ['bad: accepted'];
  } catch (error) {
    const { statusCode, name, error: body, message } = error as SdkError;
    if (name !== expected) return [statusCode ? `bad: HTTP ${statusCode} ${name}` : `bad: threw ${message}`];
    const bodyType = errorBodyType(declarations, expected);
    if (!bodyType) return [`bad: ${expected} (no such class in this version)`];
    return [`bad: ${expected}`, ...mismatchLines(declarations, bodyType, body).map(line => `bad ${line}`)];
  }
}
