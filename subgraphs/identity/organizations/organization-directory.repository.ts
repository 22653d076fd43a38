import type { EntityManager } from '@mikro-orm/postgresql';
import type { Organization } from './organization.entity.js';

/** The ORM's connection, on which these statements run. */
type IdentityConnection = ReturnType<EntityManager['getConnection']>;

/**
 * The organization directory's reads (organization-directory.provider.ts), in SQL on identity's
 * connection, never on an entity manager: billing calls the directory inside its own transactions,
 * where MikroORM's request context would hand identity's `em.fork()` billing's context, which does
 * not know identity's entities.
 */
export class OrganizationDirectoryRepository {
  constructor(private readonly connection: IdentityConnection) {}

  findById(id: string): Promise<Organization | null> {
    return this.row('id = ?', id);
  }

  findBySlug(slug: string): Promise<Organization | null> {
    return this.row('slug = ?', slug);
  }

  /** A user's e-mail (none for an unknown user). */
  async userEmails(userId: string): Promise<string[]> {
    const rows = await this.connection.execute<{ email: string }[]>('select email from identity.users where id = ?', [
      userId,
    ]);
    return rows.map(r => r.email);
  }

  /** The members of an organization with their role, oldest membership first. */
  memberEmails(organizationId: string): Promise<{ email: string; role: string }[]> {
    return this.connection.execute<{ email: string; role: string }[]>(
      `select u.email, m.role from identity.memberships m join identity.users u on u.id = m.user_id
        where m.organization_id = ? order by m.created_at, u.email`,
      [organizationId],
    );
  }

  private async row(where: string, value: string): Promise<Organization | null> {
    const [row] = await this.connection.execute<Record<string, unknown>[]>(
      `select id, name, slug, avatar_url, customer_portal_settings, subscription_settings, customer_email_settings,
              country, default_tax_behavior, tax_settings, default_presentment_currency, feature_settings
         from identity.organizations where ${where}`,
      [value],
    );
    return row
      ? ({
          id: row.id,
          name: row.name,
          slug: row.slug,
          avatarUrl: row.avatar_url ?? null,
          customerPortalSettings: row.customer_portal_settings,
          subscriptionSettings: row.subscription_settings,
          customerEmailSettings: row.customer_email_settings,
          country: row.country ?? null,
          defaultTaxBehavior: row.default_tax_behavior,
          taxSettings: row.tax_settings,
          defaultPresentmentCurrency: row.default_presentment_currency,
          featureSettings: row.feature_settings,
        } as Organization)
      : null;
  }
}
