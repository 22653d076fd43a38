import 'reflect-metadata';
import { systemClock } from '../../kit/clock.js';
import { runMain } from '../../kit/process/run-service.js';
import { runSubgraph } from '../../kit/process/run-subgraph.js';
import { startIdentity } from './runtime.js';

/**
 * The identity subgraph as its own process (distributed topology, `node dist/subgraphs/identity/main.js`):
 * one environment (ENVIRONMENT) on DATABASE_URL, serving subgraph fetches signed by the gateway and
 * principal look-ups (bearer / session → principal) signed by the REST adapter. Migrates its schema at
 * start (advisory-locked, so several replicas may start at once).
 */
runMain(() =>
  runSubgraph({
    service: 'identity',
    start: config => startIdentity({ databaseUrl: config.DATABASE_URL, secret: config.SECRET, clock: systemClock }),
    principals: runtime => runtime.principals,
  }),
);
