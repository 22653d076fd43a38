import { generateToken, hashToken, hasValidChecksum, prefixOf, TOKEN_PREFIXES } from '../tokens.js';

describe('generateToken', () => {
  it.each(Object.entries(TOKEN_PREFIXES))(
    'makes %s tokens: prefix + 37 random + 6 checksum characters',
    (_kind, prefix) => {
      const token = generateToken(prefix);
      expect(token.startsWith(prefix)).toBe(true);
      expect(token.length).toBe(prefix.length + 43);
      expect(token.slice(prefix.length)).toMatch(/^[0-9A-Za-z]{43}$/);
      expect(hasValidChecksum(token, prefix)).toBe(true);
    },
  );

  it('never repeats', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => generateToken(TOKEN_PREFIXES.organizationAccessToken)));
    expect(tokens.size).toBe(1000);
  });
});

describe('hasValidChecksum', () => {
  const token = generateToken(TOKEN_PREFIXES.personalAccessToken);
  it.each([
    ['a changed character', token.slice(0, 15) + (token[15] === 'x' ? 'y' : 'x') + token.slice(16)],
    ['a missing character', token.slice(0, -1)],
    ['another prefix', token.replace('polar_pat_', 'polar_oat_')],
    ['non-alphanumerics', `${token.slice(0, -2)}!!`],
  ])('rejects %s', (_case, candidate) => {
    expect(hasValidChecksum(candidate, TOKEN_PREFIXES.personalAccessToken)).toBe(false);
  });
});

describe('hashToken', () => {
  it('is a keyed HMAC: same input and key give the same hash, another key another', () => {
    expect(hashToken('t', 'k1')).toBe(hashToken('t', 'k1'));
    expect(hashToken('t', 'k1')).not.toBe(hashToken('t', 'k2'));
    expect(hashToken('t', 'k1')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('prefixOf', () => {
  it('prefers the longest matching prefix', () => {
    expect(prefixOf('polar_at_u_abc')).toBe('polar_at_u_');
    expect(prefixOf('polar_cst_abc')).toBe('polar_cst_');
    expect(prefixOf('sk_live_abc')).toBeUndefined();
  });
});
