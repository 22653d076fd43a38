import type { Request } from 'express';
import type { ValidationIssue } from '../../../kit/errors.js';
import { ANONYMOUS } from '../../../kit/principal.js';
import type { GatewayClient } from '../../upstream/gateway-client.js';
import type { OperationName, OperationResults } from '../../v1/operation-results/index.generated.js';
import type { OperationDocuments } from '../../v1/operations.js';
import type { GraphQLErrorLike } from '../../v1/wire-errors.js';
import { OperationFailed } from './checkout.form.js';

/** What the public pages that act for nobody (the hosted checkout, the sandbox's bank page) call through. */
export interface AnonymousGateway {
  gateway: GatewayClient;
  operations: OperationDocuments;
}

/**
 * Runs one named operation as the anonymous caller (the page holds only a client secret): its data as
 * the generated result type, a refusal thrown as OperationFailed (its status, code, message and items),
 * anything else (a 5xx, no data) thrown as an Error for the page's 500.
 */
export async function runAnonymous<Op extends OperationName>(
  deps: AnonymousGateway,
  operation: Op,
  variables: Record<string, unknown>,
  req: Request,
): Promise<OperationResults[Op]> {
  const result = await deps.gateway.execute(
    { query: deps.operations.source(operation), operationName: operation, variables },
    ANONYMOUS,
    req.requestId,
  );
  // The operation was validated against the schema, so its data is the generated result type.
  if (result.data && !result.errors?.length) return result.data as OperationResults[Op];
  const error = result.errors?.[0] as GraphQLErrorLike | undefined;
  const status = error?.extensions?.http?.status ?? 500;
  if (status >= 500) throw new Error(`${operation} failed: ${error?.message ?? 'no data'}`);
  const details = error?.extensions?.details;
  throw new OperationFailed(
    status,
    error?.extensions?.code ?? 'Error',
    error?.message ?? '',
    Array.isArray(details) ? (details as ValidationIssue[]) : [],
  );
}
