import { isUuid } from '../../../kit/uuid.js';
import { type EntityManager } from '@mikro-orm/postgresql';
import { ResourceNotFound, type ValidationIssue } from '../../../kit/errors.js';
import { pageWindow, paginationOf, type Pagination, type PageRequest } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { organizationNow } from '../time/organization-clocks.js';
import { metadataIssues } from '../shared/metadata.js';
import { throwIfAny } from '../shared/issues.js';
import { displayKey, LicenseKey, LicenseKeyActivation, LicenseKeyStatus } from './license-key.entity.js';
import { generateLicenseKey } from './license-key.grants.js';
import { LicenseKeyErrors } from './license-key.errors.js';
import type {
  ActivateLicenseKeyInput,
  DeactivateLicenseKeyInput,
  UpdateLicenseKeyInput,
  ValidateLicenseKeyInput,
} from './license-key.inputs.js';
import { licenseKeyRead } from './license-key.read.js';
import { LicenseKeyActivationType, LicenseKeyType } from './license-key.type.js';
import { actsForOrganization, tenantScope } from '../../../kit/database/tenant-scope.js';
import { loadForWrite } from '../../../kit/database/write/load-for-write.js';
import { runWrite } from '../events/run-write.js';
import { LicenseKeyRepository } from './license-key.repository.js';

const INT32_MAX = 2_147_483_647;

/** Polar's ROTATABLE_STATUSES: a revoked key comes back only with its grant. */
const ROTATABLE_STATUSES: readonly LicenseKeyStatus[] = [LicenseKeyStatus.DISABLED, LicenseKeyStatus.GRANTED];

export interface LicenseKeyListQuery extends PageRequest {
  organizationIds?: string[] | null;
  benefitIds?: string[] | null;
  statuses?: string[] | null;
}

/**
 * Who checks a key: the Core API (an organization token or a member: only its organizations' keys) or
 * anyone holding the key (the unauthenticated Customer Portal routes).
 */
export type KeyCaller = 'core' | 'client';

/** License key use cases (Polar's license_key service). Stateless: every call receives the request context. */
export class LicenseKeyService {
  async list(
    ctx: RequestContext,
    query: LicenseKeyListQuery,
  ): Promise<{ items: LicenseKeyType[]; pagination: Pagination }> {
    const { rows, total } = await licenseKeyRead.page(
      ctx.em,
      ctx.principal,
      // A non-uuid (a GraphQL client's) matches no key rather than failing the uuid[] cast.
      { benefitId: query.benefitIds?.filter(id => isUuid(id)) ?? undefined, status: query.statuses ?? undefined },
      [{ key: 'created_at', direction: 'asc' }],
      pageWindow(query),
      { organizationIds: query.organizationIds },
    );
    return { items: rows.map(LicenseKeyType.fromRow), pagination: paginationOf(total, query.limit) };
  }

  /** LicenseKeyWithActivations. @throws ResourceNotFound when absent or another organization's. */
  async get(ctx: RequestContext, id: string): Promise<LicenseKeyType> {
    const row = isUuid(id) ? await licenseKeyRead.byId(ctx.em, ctx.principal, id) : null;
    if (!row) throw LicenseKeyErrors.notFound();
    return LicenseKeyType.fromRow(row);
  }

  /** LicenseKeyActivationRead: a live activation of a readable key. */
  async getActivation(ctx: RequestContext, id: string, activationId: string): Promise<LicenseKeyActivationType> {
    const key = await this.get(ctx, id);
    const activation = key.activations.find(a => a.id === activationId);
    if (!activation) throw LicenseKeyErrors.notFound();
    return { ...activation, licenseKey: { ...key, activations: [] } };
  }

  /**
   * Polar's LicenseKeyUpdate: the merchant sets status, usage, limits or expiry. One locking load in the
   * read path's scope (404 when absent or not readable); concurrent updates of a key take turns.
   */
  async update(ctx: RequestContext, id: string, input: UpdateLicenseKeyInput): Promise<LicenseKeyType> {
    throwIfAny(updateIssues(input));
    // A non-uuid id is not found rather than failing the uuid cast.
    if (!isUuid(id)) throw LicenseKeyErrors.notFound();
    await runWrite(ctx.em, async em => {
      const key = await lockReadableKey(ctx, em, id);
      if (input.status != null) key.status = input.status as LicenseKeyStatus;
      if (input.usage != null) key.usage = input.usage;
      if (input.limitActivations !== undefined) key.limitActivations = input.limitActivations;
      if (input.limitUsage !== undefined) key.limitUsage = input.limitUsage;
      if (input.expiresAt !== undefined) key.expiresAt = input.expiresAt;
      key.modifiedAt = await organizationNow(ctx, key.organizationId);
      return { result: undefined };
    });
    return this.get(ctx, id);
  }

  /**
   * Polar's rotate: a new key text for the same key (same id, status, usage, limits, expiry and
   * activations), so the old text stops validating at once. Only `granted` and `disabled` keys rotate
   * (a revoked key follows its grant; 400 `RotateNotPermitted`). The prefix is the benefit's current one,
   * and the grant's `display_key` follows, in the same transaction. Polar records no event for it.
   * The key is loaded in the read path's scope: the caller's organizations, or the portal's customer.
   */
  async rotate(ctx: RequestContext, id: string): Promise<LicenseKeyType> {
    if (!isUuid(id)) throw LicenseKeyErrors.notFound();
    await runWrite(ctx.em, async em => {
      const key = await lockReadableKey(ctx, em, id);
      if (!ROTATABLE_STATUSES.includes(key.status)) throw LicenseKeyErrors.rotateNotPermitted(key.status);
      const keys = new LicenseKeyRepository(em);
      key.key = generateLicenseKey(await keys.benefitPrefix(key.benefitId));
      key.modifiedAt = await organizationNow(ctx, key.organizationId);
      await keys.syncGrantDisplayKey(key.grantId, displayKey(key.key), key.modifiedAt);
      return { result: undefined };
    });
    return this.get(ctx, id);
  }

  /**
   * Polar's validate, checks in its order: active, not expired, the named activation (and its
   * conditions), benefit, customer, remaining usage; then counts the validation and the usage.
   */
  async validate(ctx: RequestContext, caller: KeyCaller, input: ValidateLicenseKeyInput): Promise<LicenseKeyType> {
    const issues = [...(input.conditions ? metadataIssues(input.conditions, ['body', 'conditions']) : [])];
    if (input.incrementUsage != null && input.incrementUsage < 0)
      issues.push(belowIssue('increment_usage', input.incrementUsage, 0, true));
    throwIfAny(issues);
    const { keyId, activationId } = await this.inKeyTransaction(ctx, caller, input, async (em, key, now) => {
      if (key.status !== LicenseKeyStatus.GRANTED) throw LicenseKeyErrors.inactive();
      if (key.expiresAt && now >= key.expiresAt) throw LicenseKeyErrors.expired();
      let activation: LicenseKeyActivation | null = null;
      if (input.activationId) {
        activation = await liveActivation(em, key, input.activationId);
        if (Object.keys(activation.conditions).length && !sameConditions(input.conditions ?? {}, activation.conditions))
          throw LicenseKeyErrors.conditionsMismatch();
      }
      if (input.benefitId && input.benefitId !== key.benefitId) throw LicenseKeyErrors.benefitMismatch();
      if (input.customerId && input.customerId !== key.customerId) throw LicenseKeyErrors.customerMismatch();
      const increment = input.incrementUsage ?? 0;
      if (increment && key.limitUsage) {
        const remaining = key.limitUsage - key.usage;
        if (increment > remaining) throw LicenseKeyErrors.usageExceeded(remaining);
      }
      // The column is an int4: past it the key has no more usages to give, rather than a 500.
      if (key.usage + increment > INT32_MAX) throw LicenseKeyErrors.usageExceeded(INT32_MAX - key.usage);
      key.validations += 1;
      key.lastValidatedAt = now;
      key.usage += increment;
      return { keyId: key.id, activationId: activation?.id ?? null };
    });
    const validated = await this.shaped(ctx, input.organizationId, keyId);
    const activation = activationId ? (validated.activations.find(a => a.id === activationId) ?? null) : null;
    return { ...validated, activation };
  }

  /** Polar's activate: one more activation while the key is active, unexpired and under its limit. */
  async activate(
    ctx: RequestContext,
    caller: KeyCaller,
    input: ActivateLicenseKeyInput,
  ): Promise<LicenseKeyActivationType> {
    throwIfAny([
      ...(input.conditions ? metadataIssues(input.conditions, ['body', 'conditions']) : []),
      ...(input.meta ? metadataIssues(input.meta, ['body', 'meta']) : []),
    ]);
    const { keyId, activationId } = await this.inKeyTransaction(ctx, caller, input, async (em, key, now) => {
      if (key.status !== LicenseKeyStatus.GRANTED) throw LicenseKeyErrors.activateInactive();
      if (key.expiresAt && now >= key.expiresAt) throw LicenseKeyErrors.activateExpired();
      if (!key.limitActivations) throw LicenseKeyErrors.noActivations();
      // The key's row is locked: concurrent activations count one after the other.
      const live = await new LicenseKeyRepository(em).countLiveActivations(key.id);
      if (live >= key.limitActivations) throw LicenseKeyErrors.activationLimit();
      const activation = em.create(LicenseKeyActivation, {
        licenseKeyId: key.id,
        label: input.label,
        conditions: input.conditions ?? {},
        meta: input.meta ?? {},
        createdAt: now,
        modifiedAt: null,
        deletedAt: null,
      } as LicenseKeyActivation);
      return { keyId: key.id, activationId: activation.id };
    });
    const key = await this.shaped(ctx, input.organizationId, keyId);
    const activation = key.activations.find(a => a.id === activationId);
    if (!activation) throw new Error(`activation ${activationId} vanished after commit`);
    return { ...activation, licenseKey: { ...key, activations: [] } };
  }

  /** Polar's deactivate: the activation stops counting (kept, marked deleted). */
  async deactivate(ctx: RequestContext, caller: KeyCaller, input: DeactivateLicenseKeyInput): Promise<void> {
    await this.inKeyTransaction(ctx, caller, input, async (em, key, now) => {
      const activation = await liveActivation(em, key, input.activationId);
      activation.deletedAt = now;
      activation.modifiedAt = now;
    });
  }

  /**
   * Finds the key by organization and key string (the Core API: only within the caller's
   * organizations), locks its row and runs `work` at the organization's time, in the write frame. The
   * key itself is the credential (no principal row scope beyond the organization), so the locking load
   * is the repository's `findByKeyForUpdate`, not `loadForWrite`. License keys record no events.
   */
  private async inKeyTransaction<T>(
    ctx: RequestContext,
    caller: KeyCaller,
    input: { key: string; organizationId: string },
    work: (em: EntityManager, key: LicenseKey, now: Date) => Promise<T>,
  ): Promise<T> {
    const readable = caller === 'client' || actsForOrganization(ctx.principal, input.organizationId);
    if (!readable || !isUuid(input.organizationId) || input.key.includes('\u0000')) throw LicenseKeyErrors.notFound();
    const now = await organizationNow(ctx, input.organizationId);
    return runWrite(ctx.em, async em => {
      const key = await new LicenseKeyRepository(em).findByKeyForUpdate(input.organizationId, input.key);
      if (!key) throw LicenseKeyErrors.notFound();
      return { result: await work(em, key, now) };
    });
  }

  /** The key as served (one read statement), within its own organization whoever the caller is. */
  private async shaped(ctx: RequestContext, organizationId: string, keyId: string): Promise<LicenseKeyType> {
    const [row] = await licenseKeyRead.byIdsIn(ctx.em, { organizationIds: [organizationId], customerId: null }, [
      keyId,
    ]);
    if (!row) throw new ResourceNotFound();
    return LicenseKeyType.fromRow(row);
  }
}

/**
 * The key, row-locked, in the read path's scope (the caller's organizations, or the portal's customer):
 * 404 when absent or not readable.
 */
function lockReadableKey(ctx: RequestContext, em: EntityManager, id: string): Promise<LicenseKey> {
  return loadForWrite(em, LicenseKey, id, tenantScope(ctx.principal, licenseKeyRead.definition.readers), {
    tenant: { customer: 'customerId' },
  });
}

async function liveActivation(em: EntityManager, key: LicenseKey, activationId: string): Promise<LicenseKeyActivation> {
  const activation = isUuid(activationId)
    ? await new LicenseKeyRepository(em).findLiveActivation(activationId, key.id)
    : null;
  if (!activation) throw LicenseKeyErrors.notFound();
  return activation;
}

/** Python's dict equality, which Polar applies: the same keys with equal values (1 == 1.0 == True). */
function sameConditions(given: Record<string, unknown>, stored: Record<string, unknown>): boolean {
  const keys = Object.keys(stored);
  if (Object.keys(given).length !== keys.length) return false;
  const scalar = (v: unknown) => (typeof v === 'boolean' ? Number(v) : v);
  return keys.every(k => k in given && scalar(given[k]) === scalar(stored[k]));
}

/** pydantic's `greater_than_equal` (ge) or `greater_than` (gt) item for a body integer. */
function belowIssue(field: string, input: number, bound: number, inclusive: boolean): ValidationIssue {
  return inclusive
    ? {
        type: 'greater_than_equal',
        loc: ['body', field],
        msg: `Input should be greater than or equal to ${bound}`,
        input,
        ctx: { ge: bound },
      }
    : {
        type: 'greater_than',
        loc: ['body', field],
        msg: `Input should be greater than ${bound}`,
        input,
        ctx: { gt: bound },
      };
}

function updateIssues(input: UpdateLicenseKeyInput): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (input.status != null && !Object.values(LicenseKeyStatus).includes(input.status as LicenseKeyStatus))
    issues.push({
      type: 'enum',
      loc: ['body', 'status'],
      msg: "Input should be 'granted', 'revoked' or 'disabled'",
      input: input.status,
      ctx: { expected: "'granted', 'revoked' or 'disabled'" },
    });
  if (input.limitActivations != null && input.limitActivations <= 0)
    issues.push(belowIssue('limit_activations', input.limitActivations, 0, false));
  if (input.limitUsage != null && input.limitUsage <= 0)
    issues.push(belowIssue('limit_usage', input.limitUsage, 0, false));
  return issues;
}
