import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { SubType } from './oauth2-client.entity.js';

/**
 * Remembered consent: the person `userId` allowed the client these scopes for the subject
 * (themselves, or one organization). A later request for a subset skips the consent page unless
 * `prompt=consent`; it is what `prompt=none` checks.
 */
@Entity({ tableName: 'oauth2_grants', schema: 'identity' })
@Unique({ properties: ['oauth2ClientId', 'userId', 'subType', 'sub'] })
export class OAuth2Grant {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid', fieldName: 'oauth2_client_id' }) oauth2ClientId!: string;
  @Index() @Property({ type: 'uuid' }) userId!: string;
  @Property({ type: 'text' }) subType!: SubType;
  @Property({ type: 'uuid' }) sub!: string;
  @Property({ type: 'text[]' }) scopes: string[] = [];
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
}
