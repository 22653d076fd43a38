import { type BillingRuntime, startBilling } from '../../subgraphs/billing/runtime.js';
import { createMigratedTestDatabase } from './database.js';

type BillingOptions = Parameters<typeof startBilling>[0];

/**
 * The billing subgraph on its own, on a fresh copy of the migrated template (`<label>`): production, public URL
 * `http://billing.test`, and no job worker (a test runs the jobs with `billing.jobs.drain()`). `options`
 * add to that (the clock, a mailer, identity's directory). `close` stops it and drops the database.
 */
export async function startBillingAlone(
  label: string,
  options: Pick<BillingOptions, 'clock'> & Partial<BillingOptions>,
): Promise<{ billing: BillingRuntime; close(): Promise<void> }> {
  const database = await createMigratedTestDatabase(label);
  const billing = await startBilling({
    databaseUrl: database.url,
    secret: 'x'.repeat(40),
    environment: 'production',
    publicUrl: 'http://billing.test',
    runJobs: false,
    ...options,
  }).catch(async error => {
    await database.drop();
    throw error;
  });
  return {
    billing,
    close: async () => {
      await billing.close();
      await database.drop();
    },
  };
}
