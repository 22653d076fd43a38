// Bootstraps the bench's tenant: with the CLI when it is built (what an operator does), else directly
// with IdentityAdmin. Split from bench/main.ts.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNode } from './support.js';

const CLI = path.join(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'), 'cli', 'main.js');

export interface Tenant {
  organizationId: string;
  oat: string;
  /** The owner's sign-in (the bench's dashboard target signs in as them). */
  email: string;
  password: string;
}

export /** With the CLI when it is built (what an operator does), else directly with IdentityAdmin. */
async function bootstrap(
  log: (line: string) => void,
  env: NodeJS.ProcessEnv,
  databaseUrl: string,
  secret: string,
  environment: 'production' | 'sandbox' = 'production',
): Promise<Tenant> {
  const tag = randomBytes(3).toString('hex');
  const email = `bench-${tag}@example.com`;
  const password = 'bench password 123';
  if (environment === 'sandbox' && !existsSync(CLI)) throw new Error('a sandbox tenant needs the CLI (npm run build)');
  if (existsSync(CLI)) {
    try {
      const out = await runNode(
        CLI,
        [
          'bootstrap',
          '--email',
          email,
          '--password',
          password,
          '--org-name',
          `Bench ${tag}`,
          '--org-slug',
          `bench-${tag}`,
          '--env',
          environment,
          '--json',
        ],
        env,
      );
      const json = JSON.parse(out.trim().split('\n').pop()!) as {
        organization_id: string;
        organization_access_token: string;
      };
      log(`${environment} tenant bootstrapped with the CLI`);
      return { organizationId: json.organization_id, oat: json.organization_access_token, email, password };
    } catch (error) {
      if (environment === 'sandbox') throw error;
      log(`CLI bootstrap failed, using IdentityAdmin directly: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  await import('reflect-metadata');
  const { systemClock } = await import('../kit/clock.js');
  const { ALL_SCOPES } = await import('../kit/scopes.js');
  const { IdentityAdmin } = await import('../subgraphs/identity/admin.js');
  const { startIdentity } = await import('../subgraphs/identity/runtime.js');
  const identity = await startIdentity({ databaseUrl, secret, clock: systemClock, poolMax: 2 });
  try {
    const admin = new IdentityAdmin(identity.orm, identity.services, systemClock, secret);
    await admin.createUser(email, password);
    const organization = await admin.createOrganization(email, `Bench ${tag}`, `bench-${tag}`);
    const oat = await admin.createOrganizationAccessToken(organization.id, [...ALL_SCOPES]);
    log('tenant bootstrapped with IdentityAdmin');
    return { organizationId: organization.id, oat, email, password };
  } finally {
    await identity.close();
  }
}
