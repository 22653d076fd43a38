import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import { toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import type { OrganizationAccessToken } from './organization-access-token.entity.js';

/** A token as the read path returns it (organization-access-token.read.ts): timestamps as ISO strings, no hash. */
export interface OrganizationAccessTokenRow {
  id: string;
  organizationId: string;
  comment: string;
  scopes: string[];
  createdAt: string;
  modifiedAt: string | null;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

/** An organization access token as listed: never the token itself, which is shown once at creation. */
@ObjectType('OrganizationAccessToken')
export class OrganizationAccessTokenType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => [String]) scopes!: string[];
  @Field(() => GraphQLISODateTime, { nullable: true }) expiresAt!: Date | null;
  @Field() comment!: string;
  @Field(() => GraphQLISODateTime, { nullable: true }) lastUsedAt!: Date | null;
  @Field(() => ID) organizationId!: string;

  /** From a managed entity (writes) or a read row (JSON: timestamps as ISO strings). */
  static fromEntity(t: OrganizationAccessToken | OrganizationAccessTokenRow): OrganizationAccessTokenType {
    return {
      id: t.id,
      createdAt: toDate(t.createdAt),
      modifiedAt: toDate(t.modifiedAt),
      scopes: t.scopes,
      expiresAt: toDate(t.expiresAt),
      comment: t.comment,
      lastUsedAt: toDate(t.lastUsedAt),
      organizationId: t.organizationId,
    };
  }
}

@ObjectType('OrganizationAccessTokenList')
export class OrganizationAccessTokenList extends ListResource(OrganizationAccessTokenType) {}

@ObjectType('OrganizationAccessTokenCreated')
export class OrganizationAccessTokenCreated {
  @Field(() => OrganizationAccessTokenType) organizationAccessToken!: OrganizationAccessTokenType;
  @Field({ description: 'The raw token. Shown only in this response.' }) token!: string;
}
