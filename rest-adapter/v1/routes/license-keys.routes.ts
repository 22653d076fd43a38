import { z } from 'zod';
import {
  CUSTOMER_PORTAL_READ,
  CUSTOMER_PORTAL_WRITE,
  LICENSE_KEY_CLIENT,
  LICENSE_KEYS_READ,
  LICENSE_KEYS_WRITE,
  licenseKeyActivationCreatedWire,
  licenseKeyActivationWire,
  licenseKeyWire,
  licenseKeyWithActivationsWire,
  validatedLicenseKeyWire,
} from '../../../subgraphs/billing/contract.js';
import { idParams, listOf, pageQuery, toInput, toWire } from './common.js';
import {
  licenseKeyActivateBody,
  licenseKeyActivationCreatedResponse,
  licenseKeyActivationResponse,
  licenseKeyDeactivateBody,
  licenseKeyResponse,
  licenseKeyUpdateBody,
  licenseKeyValidateBody,
  licenseKeyWithActivationsResponse,
  validatedLicenseKeyResponse,
} from './license-keys.schemas.js';
import type { OperationResults } from '../operation-results/index.generated.js';
import type { Route } from './route.js';

/** Wire body → GraphQL input: absent keys dropped, `conditions`/`meta` kept as written (kit/case.ts). */
function input(body: Record<string, unknown>): Record<string, unknown> {
  return toInput(Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)));
}

const PUBLIC_NOTE =
  'This endpoint needs no authentication and can be used from a public client (a desktop or mobile app); ' +
  'rate limited to 3 requests per second per address in production. On a server, use the Core API endpoint.';

type ValidateResult = OperationResults['LicenseKeysValidate' | 'CustomerPortalLicenseKeysValidate'];
type ActivateResult = OperationResults['LicenseKeysActivate' | 'CustomerPortalLicenseKeysActivate'];

/** The checked key, from the Core API's operation or the portal's. */
const validatedOf = (data: ValidateResult) =>
  'validateLicenseKey' in data ? data.validateLicenseKey : data.customerPortalValidateLicenseKey;
/** The new activation, from the Core API's operation or the portal's. */
const activatedOf = (data: ActivateResult) =>
  'activateLicenseKey' in data ? data.activateLicenseKey : data.customerPortalActivateLicenseKey;

/** validate / activate / deactivate, once for the Core API and once, unauthenticated, for the portal. */
function keyChecks(core: boolean): Route[] {
  const prefix = core ? '/v1/license-keys' : '/v1/customer-portal/license-keys';
  const op = core ? 'license_keys' : 'customer_portal:license_keys';
  const name = core ? 'LicenseKeys' : 'CustomerPortalLicenseKeys';
  const access = core ? LICENSE_KEYS_WRITE : LICENSE_KEY_CLIENT;
  const tag = core ? 'license_keys' : 'customer_portal';
  const description = core ? undefined : PUBLIC_NOTE;
  return [
    {
      operationId: `${op}:validate`,
      method: 'post',
      path: `${prefix}/validate`,
      summary: 'Validate a license key',
      description,
      tag,
      access,
      body: licenseKeyValidateBody,
      operation: `${name}Validate`,
      variables: ({ body }) => ({ input: input(body) }),
      result: (data: ValidateResult) => validatedLicenseKeyWire(validatedOf(data)),
      status: 200,
      response: validatedLicenseKeyResponse,
      errors: [400, 404],
    },
    {
      operationId: `${op}:activate`,
      method: 'post',
      path: `${prefix}/activate`,
      summary: 'Activate a license key instance',
      description,
      tag,
      access,
      body: licenseKeyActivateBody,
      operation: `${name}Activate`,
      variables: ({ body }) => ({ input: input(body) }),
      result: (data: ActivateResult) => licenseKeyActivationCreatedWire(activatedOf(data)),
      status: 200,
      response: licenseKeyActivationCreatedResponse,
      errors: [403, 404],
    },
    {
      operationId: `${op}:deactivate`,
      method: 'post',
      path: `${prefix}/deactivate`,
      summary: 'Deactivate a license key instance',
      description,
      tag,
      access,
      body: licenseKeyDeactivateBody,
      operation: `${name}Deactivate`,
      variables: ({ body }) => ({ input: input(body) }),
      result: () => undefined,
      status: 204,
      errors: [404],
    },
  ];
}

const ROTATE_NOTE =
  'Generates a new key string for the same license key. The previous key string stops validating at once; ' +
  'status, usage, limits, expiry and activations are kept. Only `granted` and `disabled` keys rotate ' +
  '(400 `RotateNotPermitted` otherwise).';

/** Rotate, on the Core API (the organization's keys) and the portal (the session customer's keys). */
function rotateRoute(core: boolean): Route {
  const shared = {
    method: 'post',
    path: core ? '/v1/license-keys/{id}/rotate' : '/v1/customer-portal/license-keys/{id}/rotate',
    summary: 'Rotate a license key',
    description: ROTATE_NOTE,
    params: idParams,
    variables: ({ params }) => ({ id: params.id }),
    status: 200,
    response: licenseKeyResponse,
    errors: [400, 404],
  } satisfies Partial<Route>;
  return core
    ? {
        ...shared,
        operationId: 'license_keys:rotate',
        tag: 'license_keys',
        access: LICENSE_KEYS_WRITE,
        operation: 'LicenseKeysRotate',
        result: data => licenseKeyWire(data.rotateLicenseKey),
      }
    : {
        ...shared,
        operationId: 'customer_portal:license_keys:rotate',
        tag: 'customer_portal',
        access: CUSTOMER_PORTAL_WRITE,
        operation: 'CustomerPortalLicenseKeysRotate',
        result: data => licenseKeyWire(data.customerPortalRotateLicenseKey),
      };
}

export const licenseKeyRoutes: Route[] = [
  {
    operationId: 'license_keys:list',
    method: 'get',
    path: '/v1/license-keys/',
    summary: 'List license keys',
    tag: 'license_keys',
    access: LICENSE_KEYS_READ,
    query: z.object({
      organization_id: z.array(z.uuid()).optional(),
      benefit_id: z.array(z.uuid()).optional(),
      status: z.array(z.enum(['granted', 'revoked', 'disabled'])).optional(),
      ...pageQuery,
    }),
    operation: 'LicenseKeysList',
    variables: ({ query }) => ({
      organizationId: query.organization_id ?? null,
      benefitId: query.benefit_id ?? null,
      status: query.status ?? null,
      page: query.page,
      limit: query.limit,
    }),
    result: data => ({
      items: data.licenseKeys.items.map(licenseKeyWire),
      pagination: toWire(data.licenseKeys.pagination),
    }),
    status: 200,
    response: listOf(licenseKeyResponse),
  },
  {
    operationId: 'license_keys:get',
    method: 'get',
    path: '/v1/license-keys/{id}',
    summary: 'Get a license key',
    tag: 'license_keys',
    access: LICENSE_KEYS_READ,
    params: idParams,
    operation: 'LicenseKeysGet',
    variables: ({ params }) => ({ id: params.id }),
    result: data => licenseKeyWithActivationsWire(data.licenseKey),
    status: 200,
    response: licenseKeyWithActivationsResponse,
    errors: [404],
  },
  {
    operationId: 'license_keys:update',
    method: 'patch',
    path: '/v1/license-keys/{id}',
    summary: 'Update a license key',
    tag: 'license_keys',
    access: LICENSE_KEYS_WRITE,
    params: idParams,
    body: licenseKeyUpdateBody,
    operation: 'LicenseKeysUpdate',
    variables: ({ params, body }) => ({ id: params.id, input: input(body) }),
    result: data => licenseKeyWire(data.updateLicenseKey),
    status: 200,
    response: licenseKeyResponse,
    errors: [404],
  },
  {
    operationId: 'license_keys:get_activation',
    method: 'get',
    path: '/v1/license-keys/{id}/activations/{activation_id}',
    summary: 'Get a license key activation',
    tag: 'license_keys',
    access: LICENSE_KEYS_READ,
    params: z.object({ id: z.uuid(), activation_id: z.uuid() }),
    operation: 'LicenseKeysGetActivation',
    variables: ({ params }) => ({ id: params.id, activationId: params.activation_id }),
    result: data => licenseKeyActivationWire(data.licenseKeyActivation),
    status: 200,
    response: licenseKeyActivationResponse,
    errors: [404],
  },
  rotateRoute(true),
  ...keyChecks(true),
  {
    operationId: 'customer_portal:license_keys:list',
    method: 'get',
    path: '/v1/customer-portal/license-keys/',
    summary: "List the customer's license keys",
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_READ,
    query: z.object({ benefit_id: z.uuid().optional(), ...pageQuery }),
    operation: 'CustomerPortalLicenseKeysList',
    variables: ({ query }) => ({ benefitId: query.benefit_id ?? null, page: query.page, limit: query.limit }),
    result: data => ({
      items: data.customerPortalLicenseKeys.items.map(licenseKeyWire),
      pagination: toWire(data.customerPortalLicenseKeys.pagination),
    }),
    status: 200,
    response: listOf(licenseKeyResponse),
  },
  {
    operationId: 'customer_portal:license_keys:get',
    method: 'get',
    path: '/v1/customer-portal/license-keys/{id}',
    summary: "Get one of the customer's license keys",
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_READ,
    params: idParams,
    operation: 'CustomerPortalLicenseKeysGet',
    variables: ({ params }) => ({ id: params.id }),
    result: data => licenseKeyWithActivationsWire(data.customerPortalLicenseKey),
    status: 200,
    response: licenseKeyWithActivationsResponse,
    errors: [404],
  },
  rotateRoute(false),
  ...keyChecks(false),
];
