import { ANONYMOUS, type Principal } from '../../kit/principal.js';
import { callerKeyOf } from '../../rest-adapter/guards/rate-limit/caller-key.js';

/** Whose counter each kind of credential spends (docs/interface.md#limits, docs/polar/rate-limits.md). */
const principal = (overrides: Partial<Principal>): Principal => ({
  subject: 'user',
  subjectId: 'u1',
  credential: 'personal_access_token',
  scopes: [],
  organizationIds: ['o1'],
  tokenId: 't1',
  ...overrides,
});

it.each([
  [
    'an organization access token',
    'organization:o1',
    { subject: 'organization', subjectId: 'o1', credential: 'organization_access_token' },
  ],
  [
    'an OAuth token acting for an organization',
    'oauth2_client:c1',
    { subject: 'organization', subjectId: 'o1', credential: 'oauth2_token', clientId: 'c1' },
  ],
  ['an OAuth token acting for a user', 'oauth2_client:c1', { credential: 'oauth2_token', clientId: 'c1' }],
  ['a customer session', 'customer:cu1', { subject: 'customer', subjectId: 'cu1', credential: 'customer_session' }],
  ['a personal access token', 'user:u1', {}],
  ['a web session', 'user:u1', { credential: 'user_session' }],
] as [string, string, Partial<Principal>][])('%s counts against %s', (_name, key, overrides) => {
  expect(callerKeyOf(principal(overrides), '192.0.2.1').key).toBe(key);
});

it('an anonymous caller counts against its address', () => {
  expect(callerKeyOf(ANONYMOUS, '192.0.2.1')).toEqual({ key: 'ip:192.0.2.1', id: '192.0.2.1' });
});
