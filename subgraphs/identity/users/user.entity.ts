import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** A person who signs in. E-mail is stored lower-cased and unique. */
@Entity({ tableName: 'users', schema: 'identity' })
export class User {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'text', unique: true }) email!: string;
  @Property({ type: 'boolean' }) emailVerified = false;
  /** `scrypt$N$r$p$salt$hash`; see users/password.ts. */
  @Property({ type: 'text', hidden: true }) passwordHash!: string;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
}
