import type { EntityManager } from '@mikro-orm/postgresql';
import { tenantScope } from '../../../kit/database/tenant-scope.js';
import { loadForWrite } from '../../../kit/database/write/load-for-write.js';
import { PolarRequestValidationError, ResourceNotFound } from '../../../kit/errors.js';
import { pageWindow, paginationOf, type Pagination, type PageRequest } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { targetOrganization } from '../../../kit/target-organization.js';
import { runWrite } from '../events/run-write.js';
import { sortCriteria } from '../shared/sorting.js';
import { organizationNow } from '../time/organization-clocks.js';
import { CUSTOM_FIELD_KINDS, CustomField, type CustomFieldKind } from './custom-field.entity.js';
import type { CustomFieldCreateInput, CustomFieldUpdateInput } from './custom-field.inputs.js';
import { customFieldRead, type CustomFieldReadFilters } from './custom-field.read.js';
import { CUSTOM_FIELD_DEFAULT_SORTING, CUSTOM_FIELD_SORT_KEYS } from './custom-field.sorting.js';
import { CustomFieldType } from './custom-field.type.js';
import { CustomFieldRepository } from './custom-field.repository.js';

export interface CustomFieldListQuery extends PageRequest, CustomFieldReadFilters {
  organizationId?: string[] | null;
  sorting?: string[] | null;
}

/**
 * Custom fields (`/v1/custom-fields/`): reads through the read path; writes as Polar's service: a slug taken by a
 * live field of the organization is 422 at `slug`, the type never changes (422 at `type`), renaming a slug
 * renames the answers already given under it, and a delete is soft (the field leaves the products it was
 * attached to; answers already given stay). Polar sends no webhook for custom fields.
 */
export class CustomFieldService {
  async list(
    ctx: RequestContext,
    query: CustomFieldListQuery,
  ): Promise<{ items: CustomFieldType[]; pagination: Pagination }> {
    const { organizationId, sorting, page, limit, query: text, type } = query;
    const filters: CustomFieldReadFilters = {
      ...(text ? { query: text } : {}),
      ...(type?.length ? { type } : {}),
    };
    const { rows, total } = await customFieldRead.page(
      ctx.em,
      ctx.principal,
      filters,
      sortCriteria(sorting ?? [], CUSTOM_FIELD_SORT_KEYS, CUSTOM_FIELD_DEFAULT_SORTING),
      pageWindow({ page, limit }),
      { organizationIds: organizationId?.length ? organizationId : null },
    );
    return { items: rows.map(CustomFieldType.fromRow), pagination: paginationOf(total, limit) };
  }

  async get(ctx: RequestContext, id: string): Promise<CustomFieldType> {
    const row = await customFieldRead.byId(ctx.em, ctx.principal, id);
    if (!row) throw new ResourceNotFound();
    return CustomFieldType.fromRow(row);
  }

  async create(ctx: RequestContext, input: CustomFieldCreateInput): Promise<CustomFieldType> {
    if (!(CUSTOM_FIELD_KINDS as readonly string[]).includes(input.type)) throw invalidType(input.type);
    const organizationId = await targetOrganization(ctx.principal, input.organizationId);
    const now = await organizationNow(ctx, organizationId);
    return runWrite(ctx.em, async em => {
      await requireFreeSlug(em, organizationId, input.slug, null);
      const field = em.create(CustomField, {
        organizationId,
        type: input.type as CustomFieldKind,
        slug: input.slug,
        name: input.name,
        properties: input.properties,
        metadata: input.metadata ?? {},
        createdAt: now,
        modifiedAt: null,
        deletedAt: null,
      });
      await em.flush();
      return { result: CustomFieldType.fromEntity(field) };
    });
  }

  async update(ctx: RequestContext, id: string, input: CustomFieldUpdateInput): Promise<CustomFieldType> {
    return runWrite(ctx.em, async em => {
      const field = await loadLive(ctx, em, id);
      if (field.type !== input.type)
        throw new PolarRequestValidationError([
          {
            type: 'value_error',
            loc: ['body', 'type'],
            msg: "The type of a custom field can't be changed.",
            input: input.type,
          },
        ]);
      const previousSlug = field.slug;
      if (input.slug != null && input.slug !== previousSlug)
        await requireFreeSlug(em, field.organizationId, input.slug, field.id);
      if (input.slug != null) field.slug = input.slug;
      if (input.name != null) field.name = input.name;
      if (input.properties != null) field.properties = input.properties;
      if (input.metadata != null) field.metadata = input.metadata;
      field.modifiedAt = await organizationNow(ctx, field.organizationId);
      await em.flush();
      if (field.slug !== previousSlug)
        await new CustomFieldRepository(em).renameAnswers(field.organizationId, previousSlug, field.slug);
      return { result: CustomFieldType.fromEntity(field) };
    });
  }

  async delete(ctx: RequestContext, id: string): Promise<void> {
    await runWrite(ctx.em, async em => {
      const field = await loadLive(ctx, em, id);
      field.deletedAt = await organizationNow(ctx, field.organizationId);
      await em.flush();
      // It leaves the products that asked it (Polar's); answers already given stay.
      await new CustomFieldRepository(em).detachEverywhere(field.id);
      return { result: undefined };
    });
  }
}

/** A live field the caller may change, locked (404 when deleted, missing or out of the read path's scope). */
function loadLive(ctx: RequestContext, em: EntityManager, id: string): Promise<CustomField> {
  return loadForWrite(em, CustomField, id, tenantScope(ctx.principal, customFieldRead.definition.readers), {
    where: { deletedAt: null },
  });
}

async function requireFreeSlug(em: EntityManager, organizationId: string, slug: string, self: string | null) {
  const holder = await new CustomFieldRepository(em).findLiveBySlug(organizationId, slug);
  if (holder && holder.id !== self)
    throw new PolarRequestValidationError([
      { type: 'value_error', loc: ['body', 'slug'], msg: 'Custom field with this slug already exists.', input: slug },
    ]);
}

function invalidType(type: string): PolarRequestValidationError {
  return new PolarRequestValidationError([
    {
      type: 'union_tag_invalid',
      loc: ['body'],
      msg: `Input tag '${type}' found using 'type' does not match any of the expected tags: ${CUSTOM_FIELD_KINDS.map(k => `'${k}'`).join(', ')}`,
      input: type,
    },
  ]);
}
