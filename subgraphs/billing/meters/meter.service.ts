import { PolarRequestValidationError, ResourceNotFound, type ValidationIssue } from '../../../kit/errors.js';
import { tenantScope } from '../../../kit/database/tenant-scope.js';
import { loadForWrite } from '../../../kit/database/write/load-for-write.js';
import { pageWindow, paginationOf, type PageRequest, type Pagination } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { targetOrganization } from '../../../kit/target-organization.js';
import { runWrite } from '../events/run-write.js';
import { throwIfAny } from '../shared/issues.js';
import { metadataIssues } from '../shared/metadata.js';
import { metadataFilter } from '../shared/metadata-filter.js';
import { sortCriteria } from '../shared/sorting.js';
import { organizationNow } from '../time/organization-clocks.js';
import { Meter, METER_UNITS, type MeterUnit } from './meter.entity.js';
import type { MeterCreateInput, MeterQuantitiesInput, MeterUpdateInput } from './meter.inputs.js';
import { parseAggregation, parseFilter } from './meter-input.js';
import { meterRead, type MeterReadFilters } from './meter.read.js';
import { MeterRepository } from './meter.repository.js';
import { eventCustomerCondition, eventMetadataCondition } from './event-conditions.js';
import { type AggregationFunction, isUnderLimits, type TimeInterval } from './meter-sql.js';
import { METER_DEFAULT_SORTING, METER_SORT_KEYS } from './meter.sorting.js';
import { MeterQuantitiesType, MeterType } from './meter.type.js';
import { quantitiesIssues } from './meter-quantities.validation.js';

export interface MeterListQuery extends PageRequest, MeterReadFilters {
  organizationId?: string[] | null;
  sorting?: string[] | null;
  metadataValues?: Record<string, unknown> | null;
}

const body = (field: string): (string | number)[] => ['body', field];

/** Polar's unit rules: a custom label only (and always) with the `custom` unit. */
function unitIssues(unit: string, customLabel: string | null | undefined): ValidationIssue[] {
  if (!(METER_UNITS as readonly string[]).includes(unit))
    return [{ type: 'enum', loc: body('unit'), msg: "Input should be 'scalar', 'token' or 'custom'", input: unit }];
  if (unit === 'custom' && customLabel == null)
    return [
      {
        type: 'value_error',
        loc: ['body'],
        msg: "Value error, custom_label is required when unit is 'custom'.",
        input: null,
      },
    ];
  if (unit !== 'custom' && customLabel != null)
    return [
      {
        type: 'value_error',
        loc: ['body'],
        msg: "Value error, custom_label and custom_multiplier are only allowed when unit is 'custom'.",
        input: customLabel,
      },
    ];
  return [];
}

function nameIssues(name: string | null | undefined): ValidationIssue[] {
  if (name == null || name.length >= 3) return [];
  return [
    {
      type: 'string_too_short',
      loc: body('name'),
      msg: 'String should have at least 3 characters',
      input: name,
      ctx: { min_length: 3 },
    },
  ];
}

/**
 * Meters (`/v1/meters/`, docs/meters.md): list and get through the read path; create and update on the write path.
 * Updating the filter or the aggregation of a meter with billed events is 422 (Polar's `forbidden`), archiving a
 * meter a price or a credit benefit uses is 422 at `is_archived` (the two seams of MeterRepository).
 */
export class MeterService {
  async list(ctx: RequestContext, query: MeterListQuery): Promise<{ items: MeterType[]; pagination: Pagination }> {
    const { organizationId, sorting, page, limit, query: text, isArchived, metadataValues } = query;
    const metadata = Object.fromEntries(
      Object.entries(metadataFilter(metadataValues) ?? {}).filter(([, values]) => values.length),
    );
    const filters: MeterReadFilters = {
      ...(text ? { query: text } : {}),
      ...(isArchived != null ? { isArchived } : {}),
      ...(Object.keys(metadata).length ? { metadata } : {}),
    };
    const { rows, total } = await meterRead.page(
      ctx.em,
      ctx.principal,
      filters,
      sortCriteria(sorting ?? [], METER_SORT_KEYS, METER_DEFAULT_SORTING),
      pageWindow({ page, limit }),
      { organizationIds: organizationId?.length ? organizationId : null },
    );
    return { items: rows.map(MeterType.fromRow), pagination: paginationOf(total, limit) };
  }

  async get(ctx: RequestContext, id: string): Promise<MeterType> {
    const row = await meterRead.byId(ctx.em, ctx.principal, id);
    if (!row) throw new ResourceNotFound();
    return MeterType.fromRow(row);
  }

  async create(ctx: RequestContext, input: MeterCreateInput): Promise<MeterType> {
    const filter = parseFilter(input.filter, body('filter'));
    const aggregation = parseAggregation(input.aggregation, body('aggregation'));
    const unit = input.unit ?? 'scalar';
    throwIfAny([
      ...nameIssues(input.name),
      ...unitIssues(unit, input.customLabel),
      ...filter.issues,
      ...aggregation.issues,
      ...metadataIssues(input.metadata ?? {}),
    ]);
    const organizationId = await targetOrganization(ctx.principal, input.organizationId);
    return runWrite(ctx.em, async em => {
      const meter = em.create(Meter, {
        organizationId,
        name: input.name,
        unit: unit as MeterUnit,
        customLabel: input.customLabel ?? null,
        customMultiplier: input.customMultiplier ?? null,
        filter: filter.value!,
        aggregation: aggregation.value!,
        metadata: input.metadata ?? {},
        createdAt: await organizationNow(ctx, organizationId),
      });
      await em.flush();
      return { result: MeterType.fromEntity(meter) };
    });
  }

  async update(ctx: RequestContext, id: string, input: MeterUpdateInput): Promise<MeterType> {
    return runWrite(ctx.em, async em => {
      const meter = await loadForWrite(em, Meter, id, tenantScope(ctx.principal, meterRead.definition.readers));
      const repository = new MeterRepository(em);
      const filter = input.filter != null ? parseFilter(input.filter, body('filter')) : null;
      const aggregation = input.aggregation != null ? parseAggregation(input.aggregation, body('aggregation')) : null;
      const unit = input.unit ?? meter.unit;
      const customLabel =
        input.customLabel !== undefined ? input.customLabel : unit === meter.unit ? meter.customLabel : null;
      const issues = [
        ...nameIssues(input.name),
        ...(input.unit != null || input.customLabel !== undefined ? unitIssues(unit, customLabel) : []),
        ...(filter?.issues ?? []),
        ...(aggregation?.issues ?? []),
        ...(input.metadata != null ? metadataIssues(input.metadata) : []),
      ];
      if ((filter || aggregation) && (await repository.hasBilledEvents(meter.id)))
        for (const [field, value] of [
          ['filter', input.filter],
          ['aggregation', input.aggregation],
        ] as const)
          if (value != null)
            issues.push({
              type: 'forbidden',
              loc: body(field),
              msg: "This field can't be updated because the meter is already aggregating events.",
              input: value,
            });
      throwIfAny(issues);
      if (input.isArchived === true && !meter.archivedAt) {
        const usedBy = await repository.usedBy(meter.id);
        if (usedBy)
          throw new PolarRequestValidationError([
            {
              type: 'value_error',
              loc: body('is_archived'),
              msg:
                usedBy === 'price'
                  ? 'Cannot archive meter that is still attached to active products'
                  : 'Cannot archive meter that is still referenced by active benefits',
              input: true,
            },
          ]);
      }
      const now = await organizationNow(ctx, meter.organizationId);
      if (input.name != null) meter.name = input.name;
      if (input.unit != null || input.customLabel !== undefined) {
        meter.unit = unit as MeterUnit;
        meter.customLabel = customLabel ?? null;
      }
      if (input.customMultiplier !== undefined) meter.customMultiplier = input.customMultiplier ?? null;
      if (filter?.value) meter.filter = filter.value;
      if (aggregation?.value) meter.aggregation = aggregation.value;
      if (input.metadata != null) meter.metadata = input.metadata;
      if (input.isArchived != null) meter.archivedAt = input.isArchived ? (meter.archivedAt ?? now) : null;
      meter.modifiedAt = now;
      await em.flush();
      return { result: MeterType.fromEntity(meter) };
    });
  }

  /** The meter's quantities over a range, as ONE statement (meter-sql.ts `quantitiesSql`). */
  async quantities(ctx: RequestContext, id: string, input: MeterQuantitiesInput): Promise<MeterQuantitiesType> {
    const meter = await this.get(ctx, id);
    throwIfAny(quantitiesIssues(input));
    const interval = input.interval as TimeInterval;
    if (!isUnderLimits(input.startTimestamp, input.endTimestamp, interval))
      throw new PolarRequestValidationError([
        {
          type: 'value_error',
          loc: ['query'],
          msg: 'The interval is too small for the given date range. Use a larger interval or reduce the date range.',
          input: [input.startTimestamp.toISOString(), input.endTimestamp.toISOString(), interval],
        },
      ]);
    const repository = new MeterRepository(ctx.em);
    const conditions = [];
    if (input.customerId?.length || input.externalCustomerId?.length)
      conditions.push(eventCustomerCondition(input.customerId ?? [], input.externalCustomerId ?? []));
    const metadata = metadataFilter(input.metadata);
    if (metadata) conditions.push(eventMetadataCondition(metadata));
    const rows = await repository.quantities({
      meter: { filter: meter.filter as never, aggregation: meter.aggregation as never },
      organizationId: meter.organizationId,
      start: input.startTimestamp,
      end: input.endTimestamp,
      interval,
      timezone: input.timezone ?? 'UTC',
      where: conditions.length
        ? { sql: conditions.map(c => c.sql).join(' and '), values: conditions.flatMap(c => c.values) }
        : undefined,
      customerAggregation: (input.customerAggregationFunction as AggregationFunction | null) ?? null,
    });
    return {
      quantities: rows.map(r => ({ timestamp: new Date(r.timestamp), quantity: Number(r.quantity) })),
      total: Number(rows.at(-1)?.total ?? 0),
    };
  }
}
