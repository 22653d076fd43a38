import type express from 'express';
import { isUuid } from '../../../kit/uuid.js';
import { verifyCsrf } from '../../web-kit/csrf.js';
import { field, FORM_EXPIRED, message } from './portal-http.js';
import type { PortalPages } from './portal-pages.js';

/**
 * The Benefits tab's Deactivate button: the key is read as the customer (`customer_portal:license_keys:get`,
 * so another customer's key is a 404), then its activation is deactivated through the portal's public
 * route (`POST /v1/customer-portal/license-keys/deactivate`, with the key and its organization), as
 * Polar's portal does. Back to the tab with a notice.
 */
export function benefitRoutes(portal: express.Router, pages: PortalPages): void {
  portal.post(
    '/benefits/deactivate',
    pages.page(async (req, res) => {
      const ctx = pages.contextOf(req, res);
      if (!verifyCsrf(req)) return message(res, ctx.organization, 'Not allowed', FORM_EXPIRED, 403);
      const keyId = field(req, 'license_key_id');
      const activationId = field(req, 'activation_id');
      if (!isUuid(keyId) || !isUuid(activationId))
        return message(res, ctx.organization, 'Not found', 'There is no such activation.', 404);
      const key = await ctx.call('customer_portal:license_keys:get', { params: { id: keyId } });
      await ctx.call('customer_portal:license_keys:deactivate', {
        body: { key: key.key, organization_id: key.organization_id, activation_id: activationId },
      });
      res.redirect(303, `${ctx.base}/benefits?done=deactivated`);
    }),
  );
}
