import { bearerOf, hasAnyScope, type Principal, signPrincipal, verifyPrincipal } from '../principal.js';
import { effectiveScopes } from '../scopes.js';

const principal: Principal = {
  subject: 'organization',
  subjectId: '2b1c1f0e-6a52-4d77-9a4e-3f8f2f0d9b11',
  credential: 'organization_access_token',
  scopes: ['organizations:write'],
  organizationIds: ['2b1c1f0e-6a52-4d77-9a4e-3f8f2f0d9b11'],
  tokenId: 'x',
};
const KEY = 'k'.repeat(40);

describe('signed principal between processes', () => {
  it('round-trips with the right key', () => {
    expect(verifyPrincipal(signPrincipal(principal, KEY), KEY)).toEqual(principal);
  });
  it('refuses a missing, forged, tampered or stale header', () => {
    const header = signPrincipal(principal, KEY);
    expect(verifyPrincipal(undefined, KEY)).toBeNull();
    expect(verifyPrincipal(header, 'x'.repeat(40))).toBeNull();
    const [payload, issued, mac] = header.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ ...principal, subjectId: 'someone-else' })).toString(
      'base64url',
    );
    expect(verifyPrincipal(`${forgedPayload}.${issued}.${mac}`, KEY)).toBeNull();
    expect(verifyPrincipal(`${payload}.${Number(issued) + 1}.${mac}`, KEY)).toBeNull();
    expect(verifyPrincipal(signPrincipal(principal, KEY, Date.now() - 120_000), KEY)).toBeNull();
  });
});

describe('scopes', () => {
  it('lets a write scope read (docs/interface.md#authentication rule 6) but not the reverse', () => {
    expect([...effectiveScopes(['organizations:write'])].sort()).toEqual(['organizations:read', 'organizations:write']);
    expect(hasAnyScope({ ...principal, scopes: ['organizations:write'] }, ['organizations:read'])).toBe(true);
    expect(hasAnyScope({ ...principal, scopes: ['organizations:read'] }, ['organizations:write'])).toBe(false);
  });
});

describe('bearerOf', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER  abc ', 'abc'],
    ['Basic abc', undefined],
    [undefined, undefined],
  ])('%j → %j', (header, token) => {
    expect(bearerOf(header)).toBe(token);
  });
});
