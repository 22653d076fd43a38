// Shared harness of the compatibility tests against the official Speakeasy SDK `@polar-sh/sdk` 0.48.1,
// which zod-validates every response (missing keys, non-ISO datetimes, wrong literals fail) and maps
// error statuses to typed classes. Any SDKValidationError / ResponseValidationError fails the test
// with the SDK's own explanation of what did not match.
import { Polar } from '@polar-sh/sdk';
import type { PolarError } from '@polar-sh/sdk/models/errors/polarerror.js';
import { ResponseValidationError } from '@polar-sh/sdk/models/errors/responsevalidationerror.js';
import { SDKValidationError } from '@polar-sh/sdk/models/errors/sdkvalidationerror.js';
import { createTenant, type RunningEnvironment, type Tenant, type TestStack } from './stack.js';
import { sharedTestStack } from './shared-stack.js';

/** An SDK client talking to `env`; without a token it is anonymous (e.g. customer-portal calls). */
export const polarClient = (env: RunningEnvironment, accessToken?: string): Polar =>
  new Polar({ accessToken, serverURL: env.baseUrl });

/** Turns the SDK's validation failures into readable test failures; everything else passes through. */
export function explain(error: unknown): never {
  if (error instanceof ResponseValidationError) {
    throw new Error(
      `SDK rejected the response (ResponseValidationError):\n${error.pretty()}\nraw: ${JSON.stringify(error.rawValue, null, 2)}`,
    );
  }
  if (error instanceof SDKValidationError) {
    throw new Error(
      `SDK validation failed (SDKValidationError):\n${error.pretty()}\nraw: ${JSON.stringify(error.rawValue, null, 2)}`,
    );
  }
  throw error;
}

/** Awaits an SDK call that must succeed; a validation failure is explained. */
export async function ok<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    return explain(error);
  }
}

/** Expects the call to fail with exactly `type`; a validation error or another class fails loudly. */
export async function failure<E extends PolarError>(
  promise: Promise<unknown>,
  type: abstract new (...args: any[]) => E,
): Promise<E> {
  let result: unknown;
  try {
    result = await promise;
  } catch (error) {
    if (error instanceof type) return error;
    if (error instanceof ResponseValidationError || error instanceof SDKValidationError) explain(error);
    throw new Error(`expected ${type.name}, got ${(error as Error)?.name}: ${(error as Error)?.message}`);
  }
  throw new Error(`expected ${type.name}, got a result: ${JSON.stringify(result)}`);
}

export interface SdkStack {
  stack: TestStack;
  /** The tenant under test and an unrelated one, both in production. */
  owner: Tenant;
  other: Tenant;
  /** A production client for any token (anonymous without one). */
  sdk: (accessToken?: string) => Polar;
  /** `owner`'s organization access token. */
  asOrganization: Polar;
  /** `owner`'s personal access token. */
  asUser: Polar;
  /** `other`'s organization access token. */
  asOther: Polar;
}

/** Two fresh tenants on the worker's shared stack (test/support/shared-stack.ts), and SDK clients for them. */
export async function startSdkStack(ownerOverrides: Parameters<typeof createTenant>[1] = {}): Promise<SdkStack> {
  const stack = await sharedTestStack();
  const owner = await createTenant(stack.production, ownerOverrides);
  const other = await createTenant(stack.production);
  const sdk = (accessToken?: string) => polarClient(stack.production, accessToken);
  return { stack, owner, other, sdk, asOrganization: sdk(owner.oat), asUser: sdk(owner.pat), asOther: sdk(other.oat) };
}
