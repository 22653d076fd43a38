import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from './user.entity.js';

/** Users by id or by e-mail (stored lower-cased: callers pass the normalized address). */
export class UserRepository {
  constructor(private readonly em: EntityManager) {}

  findById(id: string): Promise<User | null> {
    return this.em.findOne(User, { id });
  }

  findByIdOrFail(id: string): Promise<User> {
    return this.em.findOneOrFail(User, { id });
  }

  findByEmail(normalizedEmail: string): Promise<User | null> {
    return this.em.findOne(User, { email: normalizedEmail });
  }

  /** The address alone (the account page). */
  emailOf(id: string): Promise<Pick<User, 'email'> | null> {
    return this.em.findOne(User, { id }, { fields: ['email'] });
  }

  /** The OIDC `email` claims (id_token and UserInfo). */
  emailClaimsOf(id: string): Promise<Pick<User, 'email' | 'emailVerified'> | null> {
    return this.em.findOne(User, { id }, { fields: ['email', 'emailVerified'] });
  }
}
