import { CompositePrincipalResolver } from '../composite-principal-resolver.js';
import { ANONYMOUS, type Principal, type PrincipalResolver } from '../principal.js';

const principalOf = (subjectId: string): Principal => ({ ...ANONYMOUS, subject: 'user', subjectId });

function recording(name: string): PrincipalResolver & { calls: [string | undefined, string | undefined][] } {
  const calls: [string | undefined, string | undefined][] = [];
  return {
    calls,
    resolve: async (authorization, session) => {
      calls.push([authorization, session]);
      return principalOf(name);
    },
  };
}

describe('CompositePrincipalResolver', () => {
  it('routes a bearer by prefix and everything else to the fallback', async () => {
    const identity = recording('identity');
    const billing = recording('billing');
    const resolver = new CompositePrincipalResolver(identity, { polar_cst_: billing });
    expect((await resolver.resolve('Bearer polar_cst_abc')).subjectId).toBe('billing');
    expect((await resolver.resolve('bearer polar_cst_abc', 'cookie')).subjectId).toBe('billing');
    expect((await resolver.resolve('Bearer polar_oat_abc')).subjectId).toBe('identity');
    expect((await resolver.resolve('Bearer unknown')).subjectId).toBe('identity');
    expect((await resolver.resolve(undefined, 'polar_us_x')).subjectId).toBe('identity');
    expect((await resolver.resolve('Basic polar_cst_abc')).subjectId).toBe('identity');
    expect(billing.calls).toEqual([
      ['Bearer polar_cst_abc', undefined],
      ['bearer polar_cst_abc', 'cookie'],
    ]);
  });

  it('prefers the longest matching prefix', async () => {
    const short = recording('short');
    const long = recording('long');
    const resolver = new CompositePrincipalResolver(recording('fallback'), { polar_: short, polar_cst_: long });
    expect((await resolver.resolve('Bearer polar_cst_x')).subjectId).toBe('long');
    expect((await resolver.resolve('Bearer polar_oat_x')).subjectId).toBe('short');
  });
});
