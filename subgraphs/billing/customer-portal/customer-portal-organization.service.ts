import { ResourceNotFound } from '../../../kit/errors.js';
import type { Principal } from '../../../kit/principal.js';
import type { RequestContext } from '../../../kit/request-context.js';
import type { OrganizationDirectory } from '../../identity/contract.js';
import { productRead } from '../products/product.read.js';
import { productFromRow, type ProductRow, type ProductType } from '../products/product.type.js';

export interface CustomerPortalOrganizationData {
  organization: { id: string };
  products: ProductType[];
}

/** As many public products as Polar's portal page loads (its query has no limit; ours keeps one page). */
const PRODUCTS_LIMIT = 100;

/**
 * Polar's customer portal organization (customer_portal/service/organization.py): the seller by its slug
 * (identity's directory) with its public, live products, newest first. The products are read for that one
 * organization with a read-only scope of it: the caller is anonymous and has no tenant of its own.
 */
export class CustomerPortalOrganizationService {
  constructor(private readonly organizations: OrganizationDirectory | null) {}

  async get(ctx: RequestContext, slug: string): Promise<CustomerPortalOrganizationData> {
    const profile = (await this.organizations?.profileBySlug(slug)) ?? null;
    if (!profile) throw new ResourceNotFound('Organization not found.');
    const scope: Principal = {
      subject: 'organization',
      subjectId: profile.id,
      credential: 'none',
      scopes: ['products:read'],
      organizationIds: [profile.id],
      tokenId: null,
    };
    const { rows } = await productRead.page(
      ctx.em,
      scope,
      { isArchived: false, visibility: ['public'] },
      [{ key: 'created_at', direction: 'desc' }],
      { offset: 0, limit: PRODUCTS_LIMIT },
    );
    return { organization: { id: profile.id }, products: rows.map(row => productFromRow(row.product as ProductRow)) };
  }
}
