import { scopedOrganizationIds, tenantScope, CORE_READERS } from '../../../kit/database/tenant-scope.js';
import { loadForWrite } from '../../../kit/database/write/load-for-write.js';
import { pageWindow, paginationOf, type PageRequest, type Pagination } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { runWrite } from '../events/run-write.js';
import { throwIfAny } from '../shared/issues.js';
import { sortCriteria } from '../shared/sorting.js';
import { organizationNow } from '../time/organization-clocks.js';
import { EventNameRepository } from './event-name.repository.js';
import { EventType } from './event-type.entity.js';
import type { EventTypeFilterInput, EventTypeUpdateInput } from './event-type.inputs.js';
import { EventTypeType, EventTypeWithStatsType } from './event-type.type.js';
import { EVENT_TYPE_DEFAULT_SORTING, EVENT_TYPE_SORT_KEYS } from './usage-event.sorting.js';

/** Event types (`/v1/event-types/`): the organization's event names with their counts, and relabelling. */
export class EventTypeService {
  async list(
    ctx: RequestContext,
    filter: EventTypeFilterInput | null,
    request: PageRequest & { sorting?: string[] | null },
  ): Promise<{ items: EventTypeWithStatsType[]; pagination: Pagination }> {
    const organizationIds = scopedOrganizationIds(ctx.principal, CORE_READERS, filter?.organizationId);
    if (!organizationIds.length) return { items: [], pagination: paginationOf(0, request.limit) };
    const { rows, total } = await new EventNameRepository(ctx.em).page(
      {
        organizationIds,
        ...(filter?.customerId?.length || filter?.externalCustomerId?.length
          ? { customers: { ids: filter.customerId ?? [], externalIds: filter.externalCustomerId ?? [] } }
          : {}),
        source: filter?.source ? [filter.source] : undefined,
        query: filter?.query ?? undefined,
        rootEvents: filter?.rootEvents ?? false,
        parentId: filter?.parentId ?? undefined,
      },
      sortCriteria(request.sorting ?? [], EVENT_TYPE_SORT_KEYS, EVENT_TYPE_DEFAULT_SORTING),
      pageWindow(request),
    );
    return { items: rows.map(EventTypeWithStatsType.fromRow), pagination: paginationOf(total, request.limit) };
  }

  async update(ctx: RequestContext, id: string, input: EventTypeUpdateInput): Promise<EventTypeType> {
    throwIfAny(
      input.label.trim().length === 0
        ? [
            {
              type: 'string_too_short',
              loc: ['body', 'label'],
              msg: 'String should have at least 1 character',
              input: input.label,
            },
          ]
        : [],
    );
    return runWrite(ctx.em, async em => {
      const type = await loadForWrite(em, EventType, id, tenantScope(ctx.principal, CORE_READERS));
      type.label = input.label;
      if (input.labelPropertySelector !== undefined) type.labelPropertySelector = input.labelPropertySelector ?? null;
      type.modifiedAt = await organizationNow(ctx, type.organizationId);
      return { result: EventTypeType.fromEntity(type) };
    });
  }
}
