import { coreApiRule } from '../../../kit/graphql/authorize.js';

/** Who may call the metrics operations (`rest-adapter/v1/routes/metrics.routes.ts`), as Polar. */
export const METRICS_READ = coreApiRule('metrics:read', 'metrics:write');
export const METRICS_WRITE = coreApiRule('metrics:write');
