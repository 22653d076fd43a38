import { NotPermitted, ResourceNotFound } from '../../../kit/errors.js';
import { pageWindow, paginationOf, type Pagination, type PageRequest } from '../../../kit/graphql/pagination.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { tenantScope } from '../../../kit/database/tenant-scope.js';
import { loadForWrite } from '../../../kit/database/write/load-for-write.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { targetOrganization } from '../../../kit/target-organization.js';
import { benefitEvent } from './benefit.events.js';
import { runWrite } from '../events/run-write.js';
import { downloadableFileIssues } from '../files/downloadable-files.js';
import type { BenefitDownloadableFileList } from '../files/benefit-file.type.js';
import { benefitFilesPage } from '../files/benefit-files.read.js';
import { isUuid } from '../../../kit/uuid.js';
import { enqueueJob } from '../jobs/job-queue.js';
import { Product } from '../products/product.entity.js';
import { productRead } from '../products/product.read.js';
import { organizationNow } from '../time/organization-clocks.js';
import { metadataIssues } from '../shared/metadata.js';
import { throwIfAny } from '../shared/issues.js';
import { sortCriteria } from '../shared/sorting.js';
import { Benefit, type BenefitKind, ProductBenefit } from './benefit.entity.js';
import type { BenefitGrantEngine } from './benefit-grants.engine.js';
import { BENEFITS_RECONCILE_JOB } from './benefit-grants.job.js';
import type { CreateBenefitInput, UpdateBenefitInput } from './benefit.inputs.js';
import { benefitFromRow, benefitRead, type BenefitReadFilters } from './benefit.read.js';
import { BenefitRepository } from './benefit.repository.js';
import { BENEFIT_DEFAULT_SORTING, BENEFIT_SORT_KEYS } from './benefit.sorting.js';
import { BenefitType } from './benefit.type.js';
import { benefitIssues } from './benefit.validation.js';

export interface BenefitListQuery extends PageRequest, BenefitReadFilters {
  organizationIds?: string[] | null;
  sorting?: string[] | null;
}

const VISIBILITIES = ['draft', 'private', 'public'];

/** Benefit use cases: CRUD and a product's benefits. Grants follow in jobs (benefit-grants.job.ts). */
export class BenefitService {
  constructor(private readonly engine: BenefitGrantEngine) {}

  async list(ctx: RequestContext, query: BenefitListQuery): Promise<{ items: BenefitType[]; pagination: Pagination }> {
    const filters: BenefitReadFilters = {};
    if (query.ids?.length) filters.ids = query.ids;
    if (query.types?.length) filters.types = query.types;
    if (query.query) filters.query = query.query;
    const { rows, total } = await benefitRead.page(
      ctx.em,
      ctx.principal,
      filters,
      sortCriteria(query.sorting ?? [], BENEFIT_SORT_KEYS, BENEFIT_DEFAULT_SORTING),
      pageWindow(query),
      { organizationIds: query.organizationIds },
    );
    return { items: rows.map(benefitFromRow), pagination: paginationOf(total, query.limit) };
  }

  async get(ctx: RequestContext, id: string): Promise<BenefitType> {
    const row = await benefitRead.byId(ctx.em, ctx.principal, id);
    if (!row) throw new ResourceNotFound();
    return benefitFromRow(row);
  }

  /**
   * `GET /v1/benefits/{id}/files`: a downloadables benefit's active files with their download
   * statistics (files/benefit-files.read.ts). Any other type, like an unreadable benefit, is Polar's 404.
   */
  async files(ctx: RequestContext, id: string, page: PageRequest): Promise<BenefitDownloadableFileList> {
    const benefit = await this.get(ctx, id);
    if (benefit.type !== 'downloadables') throw new ResourceNotFound();
    const properties = benefit.properties as { files?: string[]; archived?: Record<string, boolean> };
    const archived = properties.archived ?? {};
    const active = [...new Set((properties.files ?? []).filter(fileId => !archived[fileId] && isUuid(fileId)))];
    const { items, total } = await benefitFilesPage(ctx.em, benefit.id, active, pageWindow(page));
    return { items, pagination: paginationOf(total, page.limit) };
  }

  async create(ctx: RequestContext, input: CreateBenefitInput): Promise<BenefitType> {
    const checked = benefitIssues(input.type, input.description, input.properties ?? {});
    throwIfAny([...checked.issues, ...visibilityIssues(input.visibility), ...metadataIssues(input.metadata ?? {})]);
    const organizationId = await targetOrganization(ctx.principal, input.organizationId);
    throwIfAny(await fileIssues(ctx.em, input.type, organizationId, checked.properties));
    const now = await organizationNow(ctx, organizationId);
    return runWrite(ctx.em, async em => {
      const benefit = em.create(Benefit, {
        organizationId,
        type: input.type as BenefitKind,
        description: input.description.trim(),
        visibility: input.visibility ?? 'public',
        selectable: true,
        deletable: true,
        properties: checked.properties,
        metadata: input.metadata ?? {},
        createdAt: now,
        modifiedAt: null,
        deletedAt: null,
      } as Benefit);
      const type = BenefitType.fromEntity(benefit);
      return { result: type, events: [benefitEvent('benefit.created', organizationId, type, now)] };
    });
  }

  /**
   * `PATCH /v1/benefits/{id}`: one locking load in the read path's scope; `benefit.updated` only when
   * something changed, and the live grants follow new properties in the same transaction.
   */
  async update(ctx: RequestContext, id: string, input: UpdateBenefitInput): Promise<BenefitType> {
    return runWrite(ctx.em, async em => {
      const benefit = await loadLiveBenefit(ctx, em, id);
      const issues = [];
      if (input.type != null && input.type !== benefit.type)
        issues.push({
          type: 'literal_error',
          loc: ['body', 'type'],
          msg: `Input should be '${benefit.type}'`,
          input: input.type,
        });
      const checked = benefitIssues(benefit.type, input.description ?? undefined, input.properties ?? undefined);
      throwIfAny([
        ...issues,
        ...checked.issues,
        ...visibilityIssues(input.visibility),
        ...metadataIssues(input.metadata ?? {}),
      ]);
      if (input.properties != null)
        throwIfAny(await fileIssues(em, benefit.type, benefit.organizationId, checked.properties));
      const before = JSON.stringify([benefit.description, benefit.visibility, benefit.properties, benefit.metadata]);
      if (input.description != null) benefit.description = input.description.trim();
      if (input.visibility != null) benefit.visibility = input.visibility;
      if (input.properties != null) benefit.properties = checked.properties;
      if (input.metadata != null) benefit.metadata = input.metadata;
      const type = BenefitType.fromEntity(benefit);
      if (before === JSON.stringify([benefit.description, benefit.visibility, benefit.properties, benefit.metadata]))
        return { result: type };
      const now = await organizationNow(ctx, benefit.organizationId);
      benefit.modifiedAt = now;
      type.modifiedAt = now;
      if (input.properties != null) await this.engine.updateBenefit(em, benefit, now);
      return { result: type, events: [benefitEvent('benefit.updated', benefit.organizationId, type, now)] };
    });
  }

  /** Soft delete (Polar's): off every product, every grant revoked, in one transaction. */
  async delete(ctx: RequestContext, id: string): Promise<void> {
    await runWrite(ctx.em, async em => {
      const benefit = await loadLiveBenefit(ctx, em, id);
      if (!benefit.deletable) throw new NotPermitted('This benefit cannot be deleted.');
      const now = await organizationNow(ctx, benefit.organizationId);
      benefit.deletedAt = now;
      benefit.modifiedAt = now;
      await new BenefitRepository(em).unlinkFromEveryProduct(id);
      const type = BenefitType.fromEntity(benefit);
      await em.flush();
      await this.engine.revokeBenefit(em, benefit, now);
      return { result: undefined, events: [benefitEvent('benefit.updated', benefit.organizationId, type, now)] };
    });
  }

  /**
   * `POST /v1/products/{id}/benefits`: replaces the product's benefits (in the given order) and
   * enqueues a reconcile of every subscription and paid one-time order of the product, so grants follow.
   */
  async setProductBenefits(ctx: RequestContext, productId: string, benefitIds: string[]): Promise<void> {
    // The product is loaded for write (its row locked: two replacements of its benefits take turns).
    const scope = tenantScope(ctx.principal, productRead.definition.readers);
    await runWrite(ctx.em, async em => {
      const product = await loadForWrite(em, Product, productId, scope, { where: { deletedAt: null } });
      const benefits = new BenefitRepository(em);
      const ids = [...new Set(benefitIds)];
      const found = new Set((await benefits.findLiveOfOrganization(ids, product.organizationId)).map(b => b.id));
      throwIfAny(
        benefitIds.flatMap((bid, i) =>
          found.has(bid)
            ? []
            : [{ type: 'value_error', loc: ['body', 'benefits', i], msg: 'Benefit does not exist.', input: bid }],
        ),
      );
      const now = await organizationNow(ctx, product.organizationId);
      await benefits.unlinkEveryBenefitOf(productId);
      for (const [position, benefitId] of ids.entries())
        em.create(ProductBenefit, { productId, benefitId, organizationId: product.organizationId, position });
      product.modifiedAt = now;
      await em.flush();
      const holders = await benefits.holdersOfProduct(productId, product.organizationId);
      for (const holder of holders)
        await enqueueJob(em, {
          kind: BENEFITS_RECONCILE_JOB,
          key: `${BENEFITS_RECONCILE_JOB}:${holder.source}:${holder.id}:product:${now.toISOString()}`,
          payload: { source: holder.source, id: holder.id, eventType: 'product.benefits' },
          runAt: new Date(),
        });
      return { result: undefined };
    });
  }
}

/** A live benefit the caller may change, locked (404 when deleted, missing or out of the read path's scope). */
function loadLiveBenefit(ctx: RequestContext, em: EntityManager, id: string): Promise<Benefit> {
  return loadForWrite(em, Benefit, id, tenantScope(ctx.principal, benefitRead.definition.readers), {
    where: { deletedAt: null },
  });
}

/** A downloadables benefit lists only its organization's uploaded files (422 at each other entry). */
function fileIssues(em: EntityManager, type: string, organizationId: string, properties: Record<string, unknown>) {
  if (type !== 'downloadables') return Promise.resolve([]);
  return downloadableFileIssues(em, organizationId, properties.files as string[], ['body', 'properties', 'files']);
}

function visibilityIssues(visibility: string | null | undefined) {
  if (visibility == null || VISIBILITIES.includes(visibility)) return [];
  return [
    {
      type: 'enum',
      loc: ['body', 'visibility'],
      msg: "Input should be 'draft', 'private' or 'public'",
      input: visibility,
    },
  ];
}
