import { bearerOf, type Principal, type PrincipalResolver } from './principal.js';

/**
 * One PrincipalResolver over several owners of credentials, chosen by the bearer's prefix: each
 * subgraph resolves the tokens it stores (billing: `polar_cst_` customer sessions; identity:
 * everything else, including no bearer, the web session cookie and unknown prefixes, which it
 * answers `invalid_token`). Used by the embedded topology in-process and by the distributed REST
 * adapter over HTTP.
 */
export class CompositePrincipalResolver implements PrincipalResolver {
  private readonly routes: [prefix: string, resolver: PrincipalResolver][];

  constructor(
    private readonly fallback: PrincipalResolver,
    byPrefix: Record<string, PrincipalResolver>,
  ) {
    // Longest prefix first, so a longer prefix is never shadowed by a shorter one.
    this.routes = Object.entries(byPrefix).sort(([a], [b]) => b.length - a.length);
  }

  resolve(authorization: string | undefined, sessionToken?: string): Promise<Principal> {
    const token = bearerOf(authorization);
    if (token !== undefined) {
      for (const [prefix, resolver] of this.routes)
        if (token.startsWith(prefix)) return resolver.resolve(authorization, sessionToken);
    }
    return this.fallback.resolve(authorization, sessionToken);
  }
}
