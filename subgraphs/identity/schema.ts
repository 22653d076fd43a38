import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../../kit/graphql/federation.js';
import { organizationReference } from './organizations/organization.reference.js';
import { OrganizationResolver } from './organizations/organization.resolver.js';
import { OrganizationAccessTokenResolver } from './tokens/organization-access-token.resolver.js';

export const IDENTITY_SUBGRAPH = 'identity';

/** The identity subgraph's executable schema (no I/O: the context brings the database). */
export function buildIdentitySchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema(
    { resolvers: [OrganizationResolver, OrganizationAccessTokenResolver] },
    { ...organizationReference },
  );
}
