import type { EntityManager } from '@mikro-orm/postgresql';
import type { SubType } from './oauth2-client.entity.js';
import { OAuth2Grant } from './oauth2-grant.entity.js';

/** Remembered consent: one row per (client, person, sub type, subject). */
export class OAuth2GrantRepository {
  constructor(private readonly em: EntityManager) {}

  /** Every subject the person granted the client for this sub type. */
  findOf(oauth2ClientId: string, userId: string, subType: SubType): Promise<OAuth2Grant[]> {
    return this.em.find(OAuth2Grant, { oauth2ClientId, userId, subType });
  }

  /** Records consent; consent widens a remembered grant, never narrows it. */
  async remember(
    grant: { oauth2ClientId: string; userId: string; subType: SubType; sub: string; scopes: string[] },
    now: Date,
  ): Promise<void> {
    await this.em.getConnection().execute(
      `insert into "identity"."oauth2_grants" ("id", "oauth2_client_id", "user_id", "sub_type", "sub", "scopes", "created_at")
       values (gen_random_uuid(), ?, ?, ?, ?, ?::text[], ?)
       on conflict ("oauth2_client_id", "user_id", "sub_type", "sub") do update
       set "scopes" = (select array_agg(distinct s order by s) from unnest("oauth2_grants"."scopes" || excluded."scopes") s), "modified_at" = excluded."created_at"`,
      [
        grant.oauth2ClientId,
        grant.userId,
        grant.subType,
        grant.sub,
        `{${grant.scopes.map(s => `"${s}"`).join(',')}}`,
        now,
      ],
    );
  }
}
