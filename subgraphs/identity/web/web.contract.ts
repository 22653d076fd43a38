import type { RpcContract } from '../../../kit/http/signed-rpc.js';
import type { Principal } from '../../../kit/principal.js';

/**
 * What the REST adapter's web pages (rest-adapter/web: sign-in, sign-up, sign-out, settings) ask of
 * the identity subgraph. Pure types, no ORM: the adapter imports this file only. Every argument and
 * result is plain JSON (null for absent values, ISO strings for times), so the same contract is served
 * in-process (embedded topology, `InProcessWebIdentity`) and over identity's signed internal endpoints
 * (distributed topology, `signedRpcClient(WEB_IDENTITY_RPC, …)`).
 *
 * `principal` is the request's principal as the adapter resolved it (a web session); identity
 * authorizes each call with it, as it does a principal signed by the gateway. Caller errors are
 * DomainErrors: `ResourceNotFound` (not a member, or no such thing), `NotPermitted` (not an owner or
 * admin), `PolarRequestValidationError` (with the items whose `msg` the page shows).
 */
export interface WebIdentity {
  /**
   * A new web session for the e-mail and password, or null when they do not match (the same answer
   * after the same work whether or not the e-mail exists). Ends `previousSessionId` first.
   */
  signIn(email: string, password: string, previousSessionId: string | null): Promise<WebSession | null>;
  /**
   * Creates the user and signs them in; with an invitation's token (its link), joins them to its organization
   * with its role in the same transaction, the link spent. @throws PolarRequestValidationError (e-mail,
   * password, e-mail taken; the invitation used, expired or for another e-mail)
   */
  signUp(
    email: string,
    password: string,
    previousSessionId: string | null,
    invitation?: string | null,
  ): Promise<WebSession>;
  /** The live invitation of a link's token (the sign-up page shows it), or null: used, replaced or expired. */
  invitation(token: string): Promise<InvitationView | null>;
  /** Ends a web session (no-op when it already ended). */
  signOut(sessionId: string): Promise<void>;
  /** The signed-in user's e-mail (the pages' header), or null when the user is gone. */
  account(principal: Principal): Promise<{ email: string } | null>;
  /** The user's organizations, by name, with their role in each. */
  organizations(principal: Principal): Promise<OrganizationSummary[]>;
  /** Creates an organization the user owns. @throws PolarRequestValidationError (name, slug, slug taken) */
  createOrganization(principal: Principal, input: { name: string; slug: string }): Promise<{ id: string }>;
  /** One organization of the user, whether they may manage it, and its live access tokens (newest first). */
  organization(principal: Principal, organizationId: string): Promise<OrganizationPage>;
  /** @returns the raw token (shown once) and its row. @throws NotPermitted, PolarRequestValidationError */
  createOrganizationAccessToken(
    principal: Principal,
    organizationId: string,
    input: { comment: string; scopes: string[]; expiresIn: string | null },
  ): Promise<{ raw: string; token: TokenRow }>;
  /** @throws ResourceNotFound (not a live token of that organization), NotPermitted */
  revokeOrganizationAccessToken(principal: Principal, organizationId: string, tokenId: string): Promise<void>;
  /**
   * The organization's members with their roles, for any member of it (the `/v1` API has no such list:
   * docs/dashboard.md#the-sections). @throws ResourceNotFound (not a member)
   */
  members(principal: Principal, organizationId: string): Promise<MemberRow[]>;
  /**
   * Invites an e-mail with a role, as Polar's `members/invite` (docs/dashboard.md#members): a person with an
   * account is added at once and told by e-mail; another gets an e-mail whose link (`<publicUrl>/signup?
   * invitation=…`) signs them up into the organization. For owners and admins; only an owner invites an owner.
   * @throws ResourceNotFound (not a member), NotPermitted, PolarRequestValidationError (bad e-mail, a member already)
   */
  inviteMember(
    principal: Principal,
    organizationId: string,
    input: { email: string; role: string; publicUrl: string },
  ): Promise<{ outcome: 'added' | 'invited' }>;
  /** The organization's pending invitations, newest first, for any member. @throws ResourceNotFound */
  invitations(principal: Principal, organizationId: string): Promise<InvitationRow[]>;
  /** @throws ResourceNotFound, NotPermitted, PolarRequestValidationError (the last owner, a bad role) */
  changeMemberRole(principal: Principal, organizationId: string, email: string, role: string): Promise<void>;
  /** @throws ResourceNotFound, NotPermitted, PolarRequestValidationError (the last owner) */
  removeMember(principal: Principal, organizationId: string, email: string): Promise<void>;
}

/** A web session: the raw `polar_us_` token for the cookie and how long it lives (by the server's clock). */
export interface WebSession {
  token: string;
  lifetimeMs: number;
}

export interface OrganizationSummary {
  id: string;
  name: string;
  slug: string;
  /** The user's role: owner, admin or member. */
  role: string;
}

export interface OrganizationPage {
  organization: OrganizationSummary & { canManage: boolean };
  tokens: TokenRow[];
}

export interface MemberRow {
  email: string;
  /** owner, admin or member. */
  role: string;
  /** When they joined (ISO 8601). */
  since: string;
}

export interface InvitationRow {
  email: string;
  /** The role they join with. */
  role: string;
  /** ISO 8601 times. */
  createdAt: string;
  expiresAt: string;
}

export interface InvitationView {
  email: string;
  role: string;
  organizationName: string;
}

export interface TokenRow {
  id: string;
  comment: string;
  scopes: string[];
  /** ISO 8601 times. */
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

/** Served by identity at `POST /internal/web/<method>` in the distributed topology. */
export const WEB_IDENTITY_RPC: RpcContract<WebIdentity> = {
  prefix: '/internal/web',
  methods: {
    signIn: true,
    signUp: true,
    signOut: true,
    account: true,
    organizations: true,
    createOrganization: true,
    organization: true,
    createOrganizationAccessToken: true,
    revokeOrganizationAccessToken: true,
    members: true,
    inviteMember: true,
    invitations: true,
    invitation: true,
    changeMemberRole: true,
    removeMember: true,
  },
};
