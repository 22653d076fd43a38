import type { EntityManager } from '@mikro-orm/postgresql';
import { tenantScope } from '../../../kit/database/tenant-scope.js';
import { loadForWrite } from '../../../kit/database/write/load-for-write.js';
import { ResourceNotFound } from '../../../kit/errors.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { targetOrganization } from '../../../kit/target-organization.js';
import { runWrite } from '../events/run-write.js';
import { organizationNow } from '../time/organization-clocks.js';
import { MetricDashboard } from './metric-dashboard.entity.js';
import { metricDashboardRead } from './metric-dashboard.read.js';
import {
  type MetricDashboardCreateInput,
  MetricDashboardType,
  type MetricDashboardUpdateInput,
} from './metric-dashboard.type.js';

/** Polar answers the dashboards as one list, not pages; an organization keeps a handful. */
const LIST_LIMIT = 1000;

/**
 * Metric dashboards (`/v1/metrics/dashboards`, docs/metrics.md#dashboards): reads through the read path, writes on
 * the write path in the read path's scope (another organization's dashboard is 404). Polar sends no webhook for
 * them and does not check their slugs.
 */
export class MetricDashboardService {
  async list(ctx: RequestContext, organizationId: string[] | null): Promise<MetricDashboardType[]> {
    const { rows } = await metricDashboardRead.page(
      ctx.em,
      ctx.principal,
      {},
      [{ key: 'created_at', direction: 'asc' }],
      { limit: LIST_LIMIT, offset: 0 },
      { organizationIds: organizationId?.length ? organizationId : null },
    );
    return rows.map(MetricDashboardType.fromRow);
  }

  async get(ctx: RequestContext, id: string): Promise<MetricDashboardType> {
    const row = await metricDashboardRead.byId(ctx.em, ctx.principal, id);
    if (!row) throw new ResourceNotFound();
    return MetricDashboardType.fromRow(row);
  }

  async create(ctx: RequestContext, input: MetricDashboardCreateInput): Promise<MetricDashboardType> {
    const organizationId = await targetOrganization(ctx.principal, input.organizationId);
    const now = await organizationNow(ctx, organizationId);
    return runWrite(ctx.em, async em => {
      const dashboard = em.create(MetricDashboard, {
        organizationId,
        name: input.name,
        metrics: input.metrics ?? [],
        createdAt: now,
        modifiedAt: null,
      });
      await em.flush();
      return { result: MetricDashboardType.fromEntity(dashboard) };
    });
  }

  async update(ctx: RequestContext, id: string, input: MetricDashboardUpdateInput): Promise<MetricDashboardType> {
    return runWrite(ctx.em, async em => {
      const dashboard = await load(ctx, em, id);
      if (input.name != null) dashboard.name = input.name;
      if (input.metrics != null) dashboard.metrics = input.metrics;
      dashboard.modifiedAt = await organizationNow(ctx, dashboard.organizationId);
      await em.flush();
      return { result: MetricDashboardType.fromEntity(dashboard) };
    });
  }

  async delete(ctx: RequestContext, id: string): Promise<void> {
    await runWrite(ctx.em, async em => {
      em.remove(await load(ctx, em, id));
      await em.flush();
      return { result: undefined };
    });
  }
}

/** The dashboard, locked, when the caller may read it (404 otherwise). */
function load(ctx: RequestContext, em: EntityManager, id: string): Promise<MetricDashboard> {
  return loadForWrite(em, MetricDashboard, id, tenantScope(ctx.principal, metricDashboardRead.definition.readers));
}
