import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../kit/paths.js';
import { importGraph } from '../support/import-graph.js';

/**
 * One tenant-scope rule for reads and writes (docs/data-access.md, "Tenant scope"): which organizations
 * a principal may touch is decided in kit/database/tenant-scope.ts only. Everywhere else asks it
 * (`tenantScope`, `scopedOrganizationIds`, `actsForOrganization`, `soleOrganization`) instead of reading
 * the organization ids a principal carries.
 */
const RULE = 'kit/database/tenant-scope.ts';

/**
 * Files that still read them, each for a reason; this list only shrinks.
 * - identity owns the memberships: its organizations are scoped by its own access rule (a member reads its
 *   organizations by the memberships table; an OAuth token down-scoped to some of them), which the read
 *   model takes as `access` and reports back as the scope its filters see.
 * - the web session view copies the principal's organizations into the signed-in page's locals.
 */
const ALLOWED = new Set([
  'kit/database/read/read-model.ts',
  'subgraphs/identity/organizations/organization.read.ts',
  'subgraphs/identity/organizations/organization.repository.ts',
  'rest-adapter/web-kit/auth.ts',
]);

/** A principal's (or a customer session's) organization ids, read in code (comments are not code). */
const READS_PRINCIPAL_ORGANIZATIONS = /\b(principal|customer)\??\.organizationIds\b/;

function codeLines(text: string): string[] {
  return text.split('\n').filter(line => !/^\s*(\*|\/\/|\/\*)/.test(line));
}

describe('tenant scope', () => {
  const root = projectRoot();
  const files = [
    ...importGraph(root, ['kit', 'subgraphs', 'rest-adapter', 'gateway', 'bench', 'scripts']).keys(),
  ].filter(file => !file.includes('/__tests__/'));

  it('is decided in one module: nothing else reads the organization ids a principal carries', () => {
    expect(files.length).toBeGreaterThan(100);
    const offending = files.filter(
      file =>
        file !== RULE &&
        !ALLOWED.has(file) &&
        codeLines(readFileSync(path.join(root, file), 'utf8')).some(line => READS_PRINCIPAL_ORGANIZATIONS.test(line)),
    );
    expect(offending).toEqual([]);
  });

  it('the allow-list names only files that still need it', () => {
    const stale = [...ALLOWED].filter(
      file =>
        !files.includes(file) ||
        !codeLines(readFileSync(path.join(root, file), 'utf8')).some(line => READS_PRINCIPAL_ORGANIZATIONS.test(line)),
    );
    expect(stale).toEqual([]);
  });

  it('the rule itself reads them', () => {
    expect(readFileSync(path.join(root, RULE), 'utf8')).toMatch(READS_PRINCIPAL_ORGANIZATIONS);
  });
});
