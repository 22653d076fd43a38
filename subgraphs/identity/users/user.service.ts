import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import { PolarRequestValidationError } from '../../../kit/errors.js';
import { hashPassword, verifyPassword } from './password.js';
import { User } from './user.entity.js';
import { UserRepository } from './user.repository.js';

/** What sign-up takes for an e-mail address (the invitations' form checks the same). */
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MIN_PASSWORD_LENGTH = 8;

/** Sign-up and sign-in. E-mail addresses are compared lower-cased. */
export class UserService {
  async create(ctx: { em: EntityManager; clock: Clock }, email: string, password: string): Promise<User> {
    const normalized = email.trim().toLowerCase();
    if (!EMAIL.test(normalized)) {
      throw new PolarRequestValidationError([
        { type: 'value_error', loc: ['body', 'email'], msg: 'value is not a valid email address', input: email },
      ]);
    }
    if (password.length < MIN_PASSWORD_LENGTH) {
      throw new PolarRequestValidationError([
        {
          type: 'string_too_short',
          loc: ['body', 'password'],
          msg: `String should have at least ${MIN_PASSWORD_LENGTH} characters`,
          input: '[redacted]',
        },
      ]);
    }
    if (await new UserRepository(ctx.em).findByEmail(normalized)) {
      throw new PolarRequestValidationError([
        { type: 'value_error', loc: ['body', 'email'], msg: 'A user with this email already exists.', input: email },
      ]);
    }
    const user = ctx.em.create(User, {
      email: normalized,
      passwordHash: await hashPassword(password),
      createdAt: ctx.clock.now(),
    } as User);
    await ctx.em.flush();
    return user;
  }

  findByEmail(em: EntityManager, email: string): Promise<User | null> {
    return new UserRepository(em).findByEmail(email.trim().toLowerCase());
  }

  /** The user when the password matches; null otherwise (same answer for unknown e-mail). */
  async authenticate(em: EntityManager, email: string, password: string): Promise<User | null> {
    const user = await this.findByEmail(em, email);
    if (!user) {
      await hashPassword(password); // spend the same time as a real check: no user-enumeration oracle
      return null;
    }
    return (await verifyPassword(password, user.passwordHash)) ? user : null;
  }
}
