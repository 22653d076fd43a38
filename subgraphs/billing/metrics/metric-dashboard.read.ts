import { entityJson } from '../../../kit/database/read/entity-json.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { CORE_READERS } from '../../../kit/database/tenant-scope.js';
import { MetricDashboard } from './metric-dashboard.entity.js';

/** Metric dashboards (`/v1/metrics/dashboards`): each row the dashboard's own JSON, oldest first. */
export const metricDashboardRead = new ReadModel<Record<string, never>>({
  name: 'metric_dashboards',
  from: 'billing.metric_dashboards md',
  alias: 'md',
  readers: CORE_READERS,
  tenant: { organization: 'md.organization_id' },
  select: { d: entityJson(MetricDashboard, 'md') },
  filters: {},
  sorts: { created_at: { sql: 'md.created_at' } },
  tieBreaker: 'id',
});
