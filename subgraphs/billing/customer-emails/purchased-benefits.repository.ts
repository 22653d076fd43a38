import type { EntityManager } from '@mikro-orm/postgresql';

/** What a purchase's live grants hand the customer, for its confirmation e-mail (docs/email.md#customer-e-mails). */
export interface PurchasedBenefits {
  /** Each license key issued by the purchase's grants: the benefit's description and the whole key. */
  licenseKeys: { benefit: string; key: string }[];
  /** Each downloadable file of the purchase's grants (uploaded, enabled, not deleted): its name. */
  files: { benefit: string; name: string }[];
}

/** The license keys and files of the live grants of one holder (a one-time order or a subscription). */
export class PurchasedBenefitsRepository {
  constructor(private readonly em: EntityManager) {}

  async of(holder: { orderId: string | null; subscriptionId: string | null }): Promise<PurchasedBenefits> {
    const where = holder.subscriptionId ? 'g.subscription_id = ?' : 'g.order_id = ?';
    const id = holder.subscriptionId ?? holder.orderId;
    const keys = await this.em.execute<{ benefit: string; key: string }[]>(
      `select b.description as benefit, k.key
         from billing.benefit_grants g
         join billing.benefits b on b.id = g.benefit_id and b.deleted_at is null
         join billing.license_keys k on k.grant_id = g.id and k.status = 'granted'
        where ${where} and g.granted_at is not null and g.revoked_at is null
        order by g.created_at, k.created_at`,
      [id],
    );
    const files = await this.em.execute<{ benefit: string; name: string }[]>(
      `select b.description as benefit, f.name
         from billing.benefit_grants g
         join billing.benefits b on b.id = g.benefit_id and b.type = 'downloadables' and b.deleted_at is null
         cross join lateral jsonb_array_elements_text(coalesce(g.properties::jsonb -> 'files', '[]'::jsonb))
           with ordinality gf(file_id, position)
         join billing.files f on f.id::text = gf.file_id
        where ${where} and g.granted_at is not null and g.revoked_at is null
          and f.deleted_at is null and f.is_uploaded and f.is_enabled
        order by g.created_at, gf.position`,
      [id],
    );
    return {
      licenseKeys: keys.map(k => ({ benefit: String(k.benefit), key: String(k.key) })),
      files: files.map(f => ({ benefit: String(f.benefit), name: String(f.name) })),
    };
  }
}
