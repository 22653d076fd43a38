// What one call of the write walk is (test/sdk/v1-write-walk.sdk.test.ts): its bearer, its arguments, what it
// must refuse; and the helpers the call tables share (write-calls.ts, write-calls-teams-usage.ts).
import { NOWHERE } from './calls.js';
import type { WriteWorld } from './write-seed.js';

/**
 * The bearer: the organization token, the walker's (a team's), the seat buyer's or an individual customer's
 * session, none, or the user's PAT.
 */
export type WriteCaller = 'organization' | 'portal' | 'seatPortal' | 'individualPortal' | 'anonymous' | 'user';

/** Answers of the calls made so far, by method. */
export type Made = Record<string, any>;

export type Args = (world: WriteWorld, made: Made) => unknown[] | Promise<unknown[]>;

export interface WriteCall {
  args: Args;
  as?: WriteCaller;
  /** A bearer made by an earlier call (an OAuth client's registration token), instead of `as`. */
  token?: (made: Made) => string;
  /** Arguments to refuse, and the SDK's error class for the refusal (default `HTTPValidationError`). */
  bad?: { args: Args; error?: string };
}

/** A path id that is not a UUID: FastAPI's (and this service's) 422 `uuid_parsing`. */
export const NOT_A_UUID = 'not-a-uuid';
export const badId: WriteCall['bad'] = { args: () => [NOT_A_UUID] };
/** The id of what an earlier call made, or an id that names nothing. */
export const id = (method: string) => (made: Made) => made[method]?.id ?? NOWHERE;
