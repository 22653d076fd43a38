import pg from 'pg';
import { loadConfig } from '../config.js';

/**
 * A probe for a process that serves no HTTP (the webhook delivery worker): `node dist/kit/process/database-probe.js`
 * exits 0 when DATABASE_URL answers `select 1` within DATABASE_ACQUIRE_TIMEOUT_MS, 1 otherwise. The
 * Kubernetes manifests run it as the worker's readiness and liveness probe (docs/kubernetes.md).
 */
const config = loadConfig();
const client = new pg.Client({
  connectionString: config.DATABASE_URL,
  connectionTimeoutMillis: config.DATABASE_ACQUIRE_TIMEOUT_MS,
  statement_timeout: config.DATABASE_ACQUIRE_TIMEOUT_MS,
  application_name: 'billing-probe',
});
try {
  await client.connect();
  await client.query('select 1');
  await client.end();
  process.exit(0);
} catch (error) {
  process.stderr.write(`database probe failed: ${(error as Error).message}\n`);
  process.exit(1);
}
