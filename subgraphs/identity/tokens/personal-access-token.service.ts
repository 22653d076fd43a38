import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import type { PrincipalCache } from '../../../kit/principal-cache.js';
import { generateToken, hashToken, TOKEN_PREFIXES } from '../../../kit/tokens.js';
import { PersonalAccessToken } from './personal-access-token.entity.js';

/** Personal access tokens act for one user. Polar no longer issues them on the web; our CLI does. */
export class PersonalAccessTokenService {
  constructor(
    private readonly secret: string,
    private readonly cache: PrincipalCache,
  ) {}

  async issue(
    ctx: { em: EntityManager; clock: Clock },
    fields: { userId: string; scopes: string[]; comment: string; expiresAt: Date | null },
  ): Promise<{ token: PersonalAccessToken; raw: string }> {
    const raw = generateToken(TOKEN_PREFIXES.personalAccessToken);
    const token = ctx.em.create(PersonalAccessToken, {
      userId: fields.userId,
      tokenHash: hashToken(raw, this.secret),
      scopes: [...new Set(fields.scopes)],
      comment: fields.comment,
      expiresAt: fields.expiresAt,
      createdAt: ctx.clock.now(),
    } as PersonalAccessToken);
    await ctx.em.flush();
    return { token, raw };
  }

  async revoke(ctx: { em: EntityManager; clock: Clock }, token: PersonalAccessToken): Promise<void> {
    token.deletedAt = ctx.clock.now();
    await ctx.em.flush();
    await this.cache.announce(ctx.em, { tokenIds: [token.id] });
  }
}
