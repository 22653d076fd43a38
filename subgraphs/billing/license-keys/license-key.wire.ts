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

/** LicenseKeyRead from a `LicenseKeyType` or the GraphQL result of schema/operations/license-keys.graphql. */
export function licenseKeyWire(data: unknown): Wire {
  const wire = snakeKeys<Wire>(plain(data));
  return { ...pick(wire, READ_KEYS), customer: customerWire(wire.customer) };
}

/** LicenseKeyWithActivations (the get). */
export function licenseKeyWithActivationsWire(data: unknown): Wire {
  const wire = snakeKeys<Wire>(plain(data));
  return { ...licenseKeyWire(data), activations: (wire.activations ?? []).map(activationBaseWire) };
}

/** ValidatedLicenseKey: `activation` set when the validation named one. */
export function validatedLicenseKeyWire(data: unknown): Wire {
  const wire = snakeKeys<Wire>(plain(data));
  return { ...licenseKeyWire(data), activation: wire.activation ? activationBaseWire(wire.activation) : null };
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
