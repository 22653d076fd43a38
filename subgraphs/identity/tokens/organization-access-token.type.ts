import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import { ListResource } from '../../../kit/graphql/pagination.js';
import type { OrganizationAccessToken } from './organization-access-token.entity.js';

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

  static fromEntity(t: OrganizationAccessToken): OrganizationAccessTokenType {
    return {
      id: t.id,
      createdAt: t.createdAt,
      modifiedAt: t.modifiedAt,
      scopes: t.scopes,
      expiresAt: t.expiresAt,
      comment: t.comment,
      lastUsedAt: t.lastUsedAt,
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
