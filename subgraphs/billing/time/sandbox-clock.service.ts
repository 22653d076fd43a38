import { PolarRequestValidationError, ResourceNotFound } from '../../../kit/errors.js';
import type { Principal } from '../../../kit/principal.js';
import type { RequestContext } from '../../../kit/request-context.js';
import type { ClockAdvance, OrganizationClocks } from './organization-clocks.js';
import { actsForOrganization, soleOrganization } from '../../../kit/database/tenant-scope.js';

export interface SandboxClockReading {
  organizationId: string;
  now: Date;
}

/**
 * `GET /v1/sandbox/clock` and `POST /v1/sandbox/clock/advance`. In production the REST paths do not
 * exist (404 `{"detail":"Not Found"}`); over GraphQL the fields answer 404 there.
 */
export class SandboxClockService {
  constructor(private readonly clocks: OrganizationClocks) {}

  /** This environment's name (what only the sandbox serves asks it). */
  get environment(): string {
    return this.clocks.environment;
  }

  async read(ctx: RequestContext, organizationId: string | null | undefined): Promise<SandboxClockReading> {
    this.requireSandbox();
    const organization = clockOrganization(ctx.principal, organizationId, 'query');
    const clock = await this.clocks.clockFor(ctx.em, organization);
    return { organizationId: organization, now: clock.now() };
  }

  async advance(
    ctx: RequestContext,
    organizationId: string | null | undefined,
    by: ClockAdvance,
  ): Promise<SandboxClockReading> {
    this.requireSandbox();
    const organization = clockOrganization(ctx.principal, organizationId, 'body');
    const now = await this.clocks.advance(ctx.em, organization, by);
    return { organizationId: organization, now };
  }

  private requireSandbox(): void {
    if (this.clocks.environment !== 'sandbox')
      throw new ResourceNotFound('The sandbox clock exists in the sandbox only.');
  }
}

/**
 * Whose clock: an organization token's own organization (naming another one is 404, like any foreign
 * id); a user names one of their organizations (`organization_id` is required unless an OAuth token is
 * down-scoped to exactly one), another organization is 404.
 */
export function clockOrganization(
  principal: Principal,
  organizationId: string | null | undefined,
  location: 'query' | 'body',
): string {
  if (principal.subject === 'organization') {
    const own = principal.subjectId!;
    if (organizationId && organizationId !== own) throw new ResourceNotFound();
    return own;
  }
  if (!organizationId) {
    const sole = soleOrganization(principal);
    if (sole) return sole;
    throw new PolarRequestValidationError([
      { type: 'missing', loc: [location, 'organization_id'], msg: 'organization_id is required.', input: null },
    ]);
  }
  if (!actsForOrganization(principal, organizationId)) throw new ResourceNotFound();
  return organizationId;
}
