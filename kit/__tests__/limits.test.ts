import { buildSchema, parse, validate } from 'graphql';
import { queryLimitRules } from '../graphql/limits.js';

const schema = buildSchema(`
  type Query { organizations(limit: Int): OrgList! organization(id: ID!): Org }
  type OrgList { items: [Org!]! }
  type Org { id: ID! name: String! parent: Org children(limit: Int): [Org!]! }
`);
const check = (source: string, maxDepth = 5, maxCost = 1000) =>
  validate(schema, parse(source), queryLimitRules({ maxDepth, maxCost })).map(e => e.message);

describe('query limits', () => {
  it('accepts an ordinary page', () => {
    expect(check('{ organizations(limit: 100) { items { id name } } }')).toEqual([]);
  });
  it('rejects depth beyond the maximum, counting through fragments', () => {
    expect(check('{ organization(id: 1) { parent { parent { parent { parent { parent { id } } } } } } }')).toEqual([
      expect.stringMatching(/depth 7 exceeds the maximum of 5/),
    ]);
    expect(
      check(
        'query { organization(id: 1) { ...F } } fragment F on Org { parent { parent { parent { parent { id } } } } }',
        4,
      ),
    ).toEqual([expect.stringMatching(/depth 6/)]);
  });
  it('multiplies the cost of nested lists by their page sizes', () => {
    expect(
      check('{ organizations(limit: 100) { items { children(limit: 100) { parent { id } } } } }', 10, 100_000),
    ).toEqual([]);
    expect(
      check('{ organizations(limit: 100) { items { children(limit: 100) { parent { id } } } } }', 10, 5000),
    ).toEqual([expect.stringMatching(/cost \d+ exceeds/)]);
  });
  it('assumes the largest page for a variable limit', () => {
    expect(check('query($n: Int) { organizations(limit: $n) { items { parent { id } } } }', 10, 100)).toEqual([
      expect.stringMatching(/cost 102 exceeds/),
    ]);
  });
});
