import { PolarRequestValidationError, ResourceNotFound, type ValidationIssue } from '../../../kit/errors.js';
import { pageWindow, paginationOf, type PageRequest } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { tenantScope } from '../../../kit/database/tenant-scope.js';
import { loadForWrite } from '../../../kit/database/write/load-for-write.js';
import { writeFrame } from '../../../kit/database/write/write-frame.js';
import { targetOrganization } from '../../../kit/target-organization.js';
import { API_VERSIONS, type ApiVersion, isApiVersion } from '../../../kit/api-versions.js';
import { SUPPORTED_WEBHOOK_FORMATS, WEBHOOK_EVENT_TYPES } from '../events/event-types.js';
import { knowsEventType } from '../events/event-versions.js';
import { checkLiteralHost } from '../worker/target-policy.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { WEBHOOK_ENDPOINT_ORDER, webhookEndpointFromRow, webhookEndpointRead } from './webhook-endpoint.read.js';
import type { CreateWebhookEndpointInput, UpdateWebhookEndpointInput } from './webhook-endpoint.inputs.js';
import { generateWebhookSecret } from './webhook-secret.js';
import { WebhookEndpointType } from './webhook-endpoint.type.js';

const URL_MAX_LENGTH = 2083;

/** Webhook endpoint use cases, scoped by the tenant rule (another organization's id is a 404). */
export class WebhookEndpointService {
  constructor(private readonly allowPrivateTargets: boolean) {}

  /** One page through the read path, newest first (a count only when the page is full). */
  async list(ctx: RequestContext, query: PageRequest & { organizationIds?: string[] | null }) {
    const { rows, total } = await webhookEndpointRead.page(
      ctx.em,
      ctx.principal,
      {},
      WEBHOOK_ENDPOINT_ORDER,
      pageWindow(query),
      { organizationIds: query.organizationIds },
    );
    return { items: rows.map(webhookEndpointFromRow), pagination: paginationOf(total, query.limit) };
  }

  /** A live endpoint as served (read path, one statement). @throws ResourceNotFound when absent or not readable. */
  async get(ctx: RequestContext, id: string): Promise<WebhookEndpointType> {
    const row = await webhookEndpointRead.byId(ctx.em, ctx.principal, id);
    if (!row) throw new ResourceNotFound();
    return webhookEndpointFromRow(row);
  }

  async create(ctx: RequestContext, input: CreateWebhookEndpointInput): Promise<WebhookEndpointType> {
    this.check({
      url: input.url,
      format: input.format,
      events: input.events,
      secret: input.secret,
      apiVersion: input.apiVersion ?? undefined,
      version: input.apiVersion ?? null,
    });
    const organizationId = await targetOrganization(ctx.principal, input.organizationId);
    // A create has no row to load: the frame's transaction holds the new row (no events: no outbox here).
    return runWrite(ctx.em, async em => {
      const endpoint = em.create(WebhookEndpoint, {
        organizationId,
        url: input.url,
        name: input.name ?? null,
        format: input.format,
        secret: input.secret || generateWebhookSecret(),
        events: unique(input.events),
        apiVersion: input.apiVersion ?? null,
        enabled: true,
        createdAt: ctx.clock.now(),
        modifiedAt: null,
        deletedAt: null,
      } as WebhookEndpoint);
      return { result: WebhookEndpointType.fromEntity(endpoint) };
    });
  }

  async update(ctx: RequestContext, id: string, input: UpdateWebhookEndpointInput): Promise<WebhookEndpointType> {
    return this.change(ctx, id, endpoint => {
      this.check({
        url: input.url ?? undefined,
        format: input.format ?? undefined,
        events: input.events ?? undefined,
        secret: input.secret,
        apiVersion: input.apiVersion ?? undefined,
        // The events kept and the version set must agree: the endpoint's version after this change.
        version: (input.apiVersion ?? endpoint.apiVersion) as ApiVersion | null,
        keptEvents: input.events == null ? endpoint.events : undefined,
      });
      if (input.url != null) endpoint.url = input.url;
      if (input.name !== undefined) endpoint.name = input.name;
      if (input.format != null) endpoint.format = input.format;
      if (input.events != null) endpoint.events = unique(input.events);
      if (input.apiVersion != null) endpoint.apiVersion = input.apiVersion;
      if (input.enabled != null) endpoint.enabled = input.enabled;
      if (input.secret) endpoint.secret = input.secret;
      endpoint.modifiedAt = ctx.clock.now();
    });
  }

  /** A new secret; deliveries signed from now on use it (what was already sent stays signed with the old one). */
  async resetSecret(ctx: RequestContext, id: string): Promise<WebhookEndpointType> {
    return this.change(ctx, id, endpoint => {
      endpoint.secret = generateWebhookSecret();
      endpoint.modifiedAt = ctx.clock.now();
    });
  }

  /** Soft delete: its queued messages are skipped when the worker reaches them. */
  async delete(ctx: RequestContext, id: string): Promise<void> {
    await this.change(ctx, id, endpoint => {
      endpoint.deletedAt = ctx.clock.now();
    });
  }

  /**
   * One change of a live endpoint on the write path: loaded once, locked, in the read model's scope, so a
   * change answers 404 exactly where the get would.
   */
  private change(
    ctx: RequestContext,
    id: string,
    apply: (endpoint: WebhookEndpoint) => void,
  ): Promise<WebhookEndpointType> {
    return runWrite(ctx.em, async em => {
      const endpoint = await loadForWrite(
        em,
        WebhookEndpoint,
        id,
        tenantScope(ctx.principal, webhookEndpointRead.definition.readers),
        {
          where: { deletedAt: null },
        },
      );
      apply(endpoint);
      return { result: WebhookEndpointType.fromEntity(endpoint) };
    });
  }

  private check(input: {
    url?: string;
    format?: string;
    events?: string[];
    secret?: string | null;
    /** The `api_version` given, checked to be one of API_VERSIONS. */
    apiVersion?: string;
    /** The version the endpoint has after the change (null: none), which must know every event type. */
    version: string | null;
    /** The endpoint's current events, when an update leaves them as they are. */
    keptEvents?: string[];
  }): void {
    const issues: ValidationIssue[] = [];
    if (input.url !== undefined) {
      const problem = this.urlProblem(input.url);
      if (problem) issues.push({ type: 'url_parsing', loc: ['body', 'url'], msg: problem, input: input.url });
    }
    if (input.format !== undefined && !(SUPPORTED_WEBHOOK_FORMATS as readonly string[]).includes(input.format))
      issues.push({
        type: 'value_error',
        loc: ['body', 'format'],
        msg: `Value error, the ${input.format} format is not supported by this server; use raw.`,
        input: input.format,
      });
    const versionKnown = input.apiVersion === undefined || isApiVersion(input.apiVersion);
    if (!versionKnown)
      issues.push({
        type: 'literal_error',
        loc: ['body', 'api_version'],
        msg: `Input should be ${API_VERSIONS.map(v => `'${v}'`)
          .join(', ')
          .replace(/, ([^,]*)$/, ' or $1')}`,
        input: input.apiVersion,
      });
    for (const [i, type] of (input.events ?? []).entries())
      if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type))
        issues.push({
          type: 'enum',
          loc: ['body', 'events', i],
          msg: 'Input should be a webhook event type',
          input: type,
        });
      else if (versionKnown && !knowsEventType(input.version as ApiVersion | null, type))
        issues.push(unknownToVersion(['body', 'events', i], type, input.version));
    // A version that lacks a type the endpoint keeps (none does today: each version knows more, not less).
    if (versionKnown)
      for (const type of input.keptEvents ?? [])
        if (!knowsEventType(input.version as ApiVersion | null, type))
          issues.push(unknownToVersion(['body', 'api_version'], type, input.version));
    if (input.secret && input.secret.length < 32)
      issues.push({
        type: 'string_too_short',
        loc: ['body', 'secret'],
        msg: 'String should have at least 32 characters',
        input: input.secret,
      });
    if (issues.length) throw new PolarRequestValidationError(issues);
  }

  private urlProblem(value: string): string | undefined {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return 'Input should be a valid URL';
    }
    if (value.length > URL_MAX_LENGTH) return `URL should have at most ${URL_MAX_LENGTH} characters`;
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'URL scheme should be http or https';
    if (this.allowPrivateTargets) return undefined;
    try {
      checkLiteralHost(url);
    } catch {
      return 'Value error, the URL must point to a public address (WEBHOOK_ALLOW_PRIVATE_TARGETS is off).';
    }
    return undefined;
  }
}

const unique = (values: string[]) => [...new Set(values)];

/**
 * An event type the endpoint's version does not know: it would never be delivered, and an old SDK
 * throws on it (docs/webhooks.md#api-versions).
 */
function unknownToVersion(loc: (string | number)[], type: string, version: string | null): ValidationIssue {
  return {
    type: 'value_error',
    loc,
    msg:
      version === null
        ? `Value error, ${type} is not sent to an endpoint without api_version (the 0.4x SDKs do not know it); set api_version.`
        : `Value error, ${type} is not an event type of API version ${version}.`,
    input: type,
  };
}

/** The webhooks subgraph's write frame: its changes record no outbox events. */
const runWrite = writeFrame(null);
