import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema, builtOnce } from '../../kit/graphql/federation.js';
import { organizationReference } from './organizations/organization.reference.js';
import { OrganizationResolver } from './organizations/organization.resolver.js';
import { OrganizationAccessTokenResolver } from './tokens/organization-access-token.resolver.js';

export const IDENTITY_SUBGRAPH = 'identity';

/** The identity subgraph's executable schema (no I/O: the context brings the database), built once per process. */
export const buildIdentitySchema: () => Promise<GraphQLSchema> = builtOnce(() =>
  buildFederatedSchema(
    { resolvers: [OrganizationResolver, OrganizationAccessTokenResolver] },
    { ...organizationReference },
  ),
);
