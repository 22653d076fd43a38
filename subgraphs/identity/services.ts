import type { PrincipalCache } from '../../kit/principal-cache.js';
import { MemberInvitationService } from './memberships/member-invitation.service.js';
import { MembershipService } from './memberships/membership.service.js';
import { OAuth2Service } from './oauth2/oauth2.service.js';
import { OrganizationService } from './organizations/organization.service.js';
import { OrganizationAccessTokenService } from './tokens/organization-access-token.service.js';
import { PersonalAccessTokenService } from './tokens/personal-access-token.service.js';
import { UserSessionService } from './sessions/user-session.service.js';
import { UserService } from './users/user.service.js';

/** The identity use cases, built once per environment and shared by resolvers, pages and the CLI. */
export interface IdentityServices {
  users: UserService;
  organizations: OrganizationService;
  memberships: MembershipService;
  invitations: MemberInvitationService;
  organizationAccessTokens: OrganizationAccessTokenService;
  personalAccessTokens: PersonalAccessTokenService;
  sessions: UserSessionService;
  oauth2: OAuth2Service;
}

export function createIdentityServices(secret: string, cache: PrincipalCache): IdentityServices {
  const sessions = new UserSessionService(secret, cache);
  const users = new UserService();
  const memberships = new MembershipService(cache);
  return {
    users,
    organizations: new OrganizationService(cache),
    memberships,
    invitations: new MemberInvitationService(secret, memberships, users, cache),
    organizationAccessTokens: new OrganizationAccessTokenService(secret, cache),
    personalAccessTokens: new PersonalAccessTokenService(secret, cache),
    sessions,
    oauth2: new OAuth2Service(secret, cache, sessions),
  };
}
