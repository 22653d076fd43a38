// License keys with the official SDK `@polar-sh/sdk` 0.48.1: the Core API (`licenseKeys.*`, an
// organization token) and the unauthenticated portal calls a desktop app makes
// (`customerPortal.licenseKeys.validate|activate|deactivate`, no token). The SDK zod-validates every
// response and maps 403/404 to its typed errors.
import { NotPermitted } from '@polar-sh/sdk/models/errors/notpermitted.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { failure, ok, type SdkStack, startSdkStack } from '../support/sdk.js';
import { issueKey, revokeGrant } from '../e2e/support/license-keys.js';

let s: SdkStack;

beforeAll(async () => {
  s = await startSdkStack();
});
describe('license keys through the SDK', () => {
  it('Core API: list, get, update, validate, activate, get activation, deactivate', async () => {
    const k = await issueKey(s.stack.production, s.owner, { activations: { limit: 1 }, limit_usage: 3 });
    const api = s.asOrganization;
    const page = await ok(api.licenseKeys.list({ organizationId: s.owner.organizationId }));
    expect(page.result.items.map(i => i.id)).toContain(k.id);
    const got = await ok(api.licenseKeys.get({ id: k.id }));
    expect(got).toMatchObject({ id: k.id, displayKey: `****-${k.key.slice(-6)}`, activations: [] });

    const validated = await ok(
      api.licenseKeys.validate({ key: k.key, organizationId: s.owner.organizationId, incrementUsage: 2 }),
    );
    expect(validated).toMatchObject({ usage: 2, validations: 1, limitUsage: 3 });

    const activation = await ok(
      api.licenseKeys.activate({ key: k.key, organizationId: s.owner.organizationId, label: 'ci', meta: { run: 7 } }),
    );
    expect(activation.licenseKey.id).toBe(k.id);
    const fetched = await ok(api.licenseKeys.getActivation({ id: k.id, activationId: activation.id }));
    expect(fetched).toMatchObject({ id: activation.id, label: 'ci', meta: { run: 7 } });

    const denied = await failure(
      api.licenseKeys.activate({ key: k.key, organizationId: s.owner.organizationId, label: 'second' }),
      NotPermitted,
    );
    expect(denied.detail).toBe('License key activation limit already reached');
    await ok(
      api.licenseKeys.deactivate({ key: k.key, organizationId: s.owner.organizationId, activationId: activation.id }),
    );

    const updated = await ok(api.licenseKeys.update({ id: k.id, licenseKeyUpdate: { limitActivations: 5 } }));
    expect(updated.limitActivations).toBe(5);
    await failure(
      api.licenseKeys.get({ id: k.id }).then(() => s.asOther.licenseKeys.get({ id: k.id })),
      ResourceNotFound,
    );
  });

  it('portal (no token): validate, activate, deactivate; refused once revoked', async () => {
    const k = await issueKey(s.stack.production, s.owner, { activations: { limit: 2 } });
    const anonymous = s.sdk();
    const ids = { key: k.key, organizationId: s.owner.organizationId };
    const validated = await ok(anonymous.customerPortal.licenseKeys.validate(ids));
    expect(validated).toMatchObject({ id: k.id, status: 'granted', activation: null });
    const activation = await ok(
      anonymous.customerPortal.licenseKeys.activate({ ...ids, label: 'laptop', conditions: { major: 3 } }),
    );
    expect(activation).toMatchObject({ label: 'laptop', licenseKeyId: k.id });
    const withActivation = await ok(
      anonymous.customerPortal.licenseKeys.validate({ ...ids, activationId: activation.id, conditions: { major: 3 } }),
    );
    expect(withActivation.activation?.id).toBe(activation.id);
    await ok(anonymous.customerPortal.licenseKeys.deactivate({ ...ids, activationId: activation.id }));

    // The customer's own view (customer session): list and get with activations.
    const session = await ok(s.asOrganization.customerSessions.create({ customerId: k.customerId }));
    const customerSession = session.token;
    const mine = await ok(anonymous.customerPortal.licenseKeys.list({ customerSession }, {}));
    expect(mine.result.items.map(i => i.id)).toEqual([k.id]);
    const one = await ok(anonymous.customerPortal.licenseKeys.get({ customerSession }, { id: k.id }));
    expect(one).toMatchObject({ id: k.id, activations: [] });

    await revokeGrant(s.stack.production, k.grantId);
    const refused = await failure(anonymous.customerPortal.licenseKeys.validate(ids), ResourceNotFound);
    expect(refused.detail).toBe('License key is no longer active.');
    const notActivated = await failure(
      anonymous.customerPortal.licenseKeys.activate({ ...ids, label: 'again' }),
      NotPermitted,
    );
    expect(notActivated.detail).toBe('License key is no longer active. This license key can not be activated.');
  });
});
