import fc from 'fast-check';
import { snakeKeys } from '../../../../kit/case.js';
import { plain, wireOf, wireWith } from '../wire.js';

// Keys as the public types and GraphQL results carry them, user-defined maps and GraphQL's own.
const key = fc.constantFrom(
  'id',
  'createdAt',
  'amount',
  'metadata',
  'customFieldData',
  'userMetadata',
  '__typename',
  'line1',
  'x_y',
);
const leaf = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.bigInt({ min: -(2n ** 40n), max: 2n ** 40n }),
  fc.date({ noInvalidDate: true }),
);
const value = fc.letrec(tie => ({
  any: fc.oneof({ depthSize: 'small' }, leaf, tie('list'), tie('object')),
  list: fc.array(tie('any'), { maxLength: 3 }),
  object: fc.dictionary(key, tie('any'), { maxKeys: 6 }),
})).any;

/** The value as text: keys in order, and a Date or bigint left in place told apart from a string or number. */
const text = (v: unknown) =>
  JSON.stringify(v, function (this: Record<string, unknown>, k, inner) {
    const raw = this[k];
    if (raw instanceof Date) return { date: inner };
    return typeof inner === 'bigint' ? { bigint: String(inner) } : inner;
  });

describe('wire conversion in one walk', () => {
  it('wireOf is snakeKeys(plain(…)): same keys, same order, same values', () => {
    fc.assert(
      fc.property(value, v => text(wireOf(v)) === text(snakeKeys(plain(v)))),
      { numRuns: 500 },
    );
  });

  it('wireWith leaves out or rebuilds the named keys in place and converts the rest like wireOf', () => {
    const source = {
      id: 'o1',
      organizationId: 'org',
      product: { createdAt: new Date(0), name: 'P' },
      totalAmount: 12n,
      metadata: { keepMe: 1 },
    };
    expect(text(wireWith(source, { organizationId: null, product: p => ({ rebuilt: p.name }) }))).toBe(
      text({ id: 'o1', product: { rebuilt: 'P' }, total_amount: 12, metadata: { keepMe: 1 } }),
    );
  });
});
