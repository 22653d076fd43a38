import { snakeKeys } from '../../../kit/case.js';
import { plain } from '../shared/wire.js';

type Wire = Record<string, any>;

const READ_KEYS = [
  'id',
  'created_at',
  'modified_at',
  'organization_id',
  'customer_id',
  'customer',
  'member_id',
  'member',
  'benefit_id',
  'key',
  'display_key',
  'status',
  'limit_activations',
  'usage',
  'limit_usage',
  'validations',
  'last_validated_at',
  'expires_at',
];
const ACTIVATION_KEYS = ['id', 'license_key_id', 'label', 'meta', 'created_at', 'modified_at'];

const pick = (wire: Wire, keys: string[]): Wire => Object.fromEntries(keys.map(k => [k, wire[k] ?? null]));

/** Polar's customer embedded in a key (LicenseKeyCustomer: CustomerBase's keys, `billing_name` and `first_user_event_at` included). */
function customerWire(customer: Wire | null): Wire | null {
  if (!customer) return null;
  return { ...customer, metadata: customer.metadata ?? {} };
}

/**
 * LicenseKeyRead from a `LicenseKeyType` or the GraphQL result of schema/operations/license-keys.graphql,
 * in the newest API version's shape (the edge leaves out what an older version lacks:
 * docs/api-versions.md). `member_id`/`member` are null: keys are granted to customers, not to seat
 * members.
 */
export function licenseKeyWire(data: unknown): Wire {
  const wire = snakeKeys<Wire>(plain(data));
  return { ...pick(wire, READ_KEYS), customer: customerWire(wire.customer) };
}

/** LicenseKeyWithActivations (the get). */
export function licenseKeyWithActivationsWire(data: unknown): Wire {
  const wire = snakeKeys<Wire>(plain(data));
  return { ...licenseKeyWire(data), activations: (wire.activations ?? []).map(activationBaseWire) };
}

/** What granted the key (`subscription_id`, `subscription`, `order_id`, `order`), when the operation selected it. */
function grantedByWire(wire: Wire): Wire {
  const subscription = wire.granting_subscription ?? null;
  const order = wire.granting_order ?? null;
  return { subscription_id: subscription?.id ?? null, subscription, order_id: order?.id ?? null, order };
}

/** ValidatedLicenseKey: `activation` set when the validation named one, and what granted the key. */
export function validatedLicenseKeyWire(data: unknown): Wire {
  const wire = snakeKeys<Wire>(plain(data));
  return {
    ...licenseKeyWire(data),
    ...grantedByWire(wire),
    activation: wire.activation ? activationBaseWire(wire.activation) : null,
  };
}

/** LicenseKeyActivationBase (snake_case input). */
function activationBaseWire(activation: Wire): Wire {
  return { ...pick(activation, ACTIVATION_KEYS), meta: activation.meta ?? {} };
}

/** LicenseKeyActivationRead: the activation with its key (LicenseKeyRead). */
export function licenseKeyActivationWire(data: unknown): Wire {
  const wire = snakeKeys<Wire>(plain(data));
  return { ...activationBaseWire(wire), license_key: licenseKeyWire((data as { licenseKey: unknown }).licenseKey) };
}

/** LicenseKeyActivationCreated (activate): the activation with its key and what granted it (GrantedLicenseKey). */
export function licenseKeyActivationCreatedWire(data: unknown): Wire {
  const key = (data as { licenseKey: unknown }).licenseKey;
  const activation = licenseKeyActivationWire(data);
  return { ...activation, license_key: { ...activation.license_key, ...grantedByWire(snakeKeys<Wire>(plain(key))) } };
}
