// The checker the SDK 1.0.1 walk relies on (test/support/sdk-types/) must be able to fail: answers broken on
// purpose are reported at the exact path, and a well-formed answer passes. docs/sdk-compatibility.md
import { conformance } from '../support/sdk-types/conformance.js';
import { clientMethods, methodResultType, sdkDeclarations } from '../support/sdk-types/declarations.js';

const declarations = sdkDeclarations('2026-10');
const check = (method: string, answer: unknown) => {
  const type = methodResultType(declarations, method);
  if (!type) throw new Error(`no method ${method}`);
  return conformance(declarations.checker, type, answer);
};

const benefit = {
  id: 'b1',
  created_at: '2026-01-01T00:00:00Z',
  modified_at: null,
  type: 'custom',
  description: 'Support',
  selectable: true,
  deletable: true,
  is_deleted: false,
  visibility: 'public',
  visibility_configurable: true,
  organization_id: 'o1',
  metadata: { tier: 'gold' },
  properties: { note: null },
};

describe('the SDK type checker', () => {
  it('reads the client: every method of 2026-10, and what each resolves to', () => {
    const methods = clientMethods(declarations);
    expect(methods).toContain('customerPortal.orders.get');
    expect(methods).toContain('customers.members.list');
    expect(methods.length).toBeGreaterThan(200);
    expect(declarations.checker.typeToString(methodResultType(declarations, 'products.get')!)).toBe('Product');
    expect(methodResultType(declarations, 'products.nothing')).toBeUndefined();
  });

  it('passes a well-formed benefit and reports nothing', () => {
    expect(check('benefits.get', benefit)).toEqual([]);
  });

  it('reports a missing required key, a null where none is allowed, a wrong kind and a wrong literal', () => {
    const { deletable: _dropped, ...withoutDeletable } = benefit;
    expect(check('benefits.get', { ...withoutDeletable, description: null, selectable: 'yes' })).toEqual(
      expect.arrayContaining([
        { path: '$.deletable', expected: 'boolean', found: 'missing' },
        { path: '$.description', expected: 'string', found: 'null' },
        { path: '$.selectable', expected: 'boolean', found: '"yes"' },
      ]),
    );
    // `type` is the discriminator: an unknown one matches no member; the nearest member is named.
    expect(check('benefits.get', { ...benefit, type: 'telepathy' })).toEqual([
      { path: '$.type', expected: '"custom"', found: '"telepathy"' },
    ]);
    expect(check('benefits.get', 'a benefit')).toEqual([{ path: '$', expected: 'Benefit', found: '"a benefit"' }]);
  });

  it('follows the discriminator into the member the answer names, and into arrays and records', () => {
    const licenseKeys = { ...benefit, type: 'license_keys', properties: { prefix: null, expires: null } };
    const found = check('benefits.list', {
      items: [benefit, licenseKeys],
      pagination: { total_count: 2, max_page: 1 },
    });
    expect(found.map(m => m.path)).toEqual(expect.arrayContaining(['$.items[1].properties.activations']));
    expect(found.every(m => m.path.startsWith('$.items[1].properties.'))).toBe(true);
    expect(check('benefits.get', { ...benefit, metadata: { tier: { nested: true } } })).toEqual([
      { path: '$.metadata.tier', expected: expect.stringContaining('string'), found: 'object' },
    ]);
  });
});
