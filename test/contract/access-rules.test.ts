import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AccessRule } from '../../kit/graphql/authorize.js';
import { projectRoot } from '../../kit/paths.js';
import { routes } from '../../rest-adapter/v1/routes/index.js';
import * as billing from '../../subgraphs/billing/contract.js';
import * as identity from '../../subgraphs/identity/contract.js';
import * as webhooks from '../../subgraphs/webhooks/contract.js';
import { importGraph } from '../support/import-graph.js';

/**
 * Access rules are written once, in each resource's `*.access.ts`, and published through the subgraph's
 * contract: the route table checks the very objects the resolvers check.
 */
const isRule = (value: unknown): value is AccessRule =>
  typeof value === 'object' && value !== null && 'subjects' in value && 'scopes' in value;
const published = new Map<AccessRule, string>(
  [...Object.entries(billing), ...Object.entries(identity), ...Object.entries(webhooks)].flatMap(([name, value]) =>
    isRule(value) ? [[value, name] as const] : [],
  ),
);

describe('access rules', () => {
  it('every route checks a rule published by a subgraph contract (the object the resolvers check)', () => {
    expect(published.size).toBeGreaterThanOrEqual(10);
    const unpublished = routes.filter(route => !published.has(route.access)).map(route => route.operationId);
    expect(unpublished).toEqual([]);
  });

  it('customer sessions reach only the Customer Portal API, and the portal only them (or anyone: license key checks)', () => {
    // Polar's unauthenticated portal endpoints (license key validate/activate/deactivate, the one-time-code
    // sign-in, the seller's public portal organization) admit anyone.
    const open = (route: (typeof routes)[number]) => route.access.subjects.join() === 'anonymous';
    const wrong = routes
      .filter(route =>
        route.path.startsWith('/v1/customer-portal/')
          ? route.access.subjects.join() !== 'customer' && !open(route)
          : route.access.subjects.includes('customer'),
      )
      .map(route => `${route.method.toUpperCase()} ${route.path}: ${published.get(route.access)}`);
    expect(wrong).toEqual([]);
  });

  it('are declared only in *.access.ts files (never inline in a route table or a resolver)', () => {
    const root = projectRoot();
    const files = [...importGraph(root, ['subgraphs', 'rest-adapter/v1/routes']).keys()].filter(
      file => !file.endsWith('.access.ts') && !file.includes('/__tests__/'),
    );
    expect(files.length).toBeGreaterThan(50);
    const inline = files.filter(file => /\bsubjects:\s*\[/.test(readFileSync(path.join(root, file), 'utf8')));
    expect(inline).toEqual([]);
  });
});
