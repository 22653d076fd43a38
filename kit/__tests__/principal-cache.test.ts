import type { Principal } from '../principal.js';
import { invalidates, PrincipalCache, parseInvalidation } from '../principal-cache.js';

const principal = (tokenId: string, subject: Principal['subject'] = 'user', subjectId = 'u1'): Principal => ({
  subject,
  subjectId,
  credential: 'personal_access_token',
  scopes: [],
  organizationIds: [],
  tokenId,
});

describe('PrincipalCache', () => {
  it('answers nothing unless a listener keeps it synchronized, and forgets everything when that changes', () => {
    const cache = new PrincipalCache();
    cache.set('h', principal('t1'), 0, null);
    expect(cache.get('h', 1)).toBeUndefined();

    cache.setSynchronized(true);
    cache.set('h', principal('t1'), 0, null);
    expect(cache.get('h', 1)?.tokenId).toBe('t1');
    cache.setSynchronized(false);
    expect(cache.get('h', 1)).toBeUndefined();
    cache.setSynchronized(true);
    expect(cache.get('h', 1)).toBeUndefined();
  });

  it('evicts by token id, by subject, or everything', () => {
    const cache = new PrincipalCache();
    cache.setSynchronized(true);
    cache.set('a', principal('t1', 'user', 'u1'), 0, null);
    cache.set('b', principal('t2', 'user', 'u1'), 0, null);
    cache.set('c', principal('t3', 'customer', 'c1'), 0, null);
    cache.evict({ tokenIds: ['t1'] });
    expect([cache.get('a', 1), cache.get('b', 1)?.tokenId]).toEqual([undefined, 't2']);
    cache.evict({ subject: 'user', subjectId: 'u1' });
    expect([cache.get('b', 1), cache.get('c', 1)?.tokenId]).toEqual([undefined, 't3']);
    cache.evict({ all: true });
    expect(cache.get('c', 1)).toBeUndefined();
  });

  it('still lets an entry go stale after its TTL or its token expiry', () => {
    const cache = new PrincipalCache(5_000);
    cache.setSynchronized(true);
    cache.set('h', principal('t1'), 0, new Date(3_000));
    expect(cache.get('h', 2_999)).toBeDefined();
    expect(cache.get('h', 3_000)).toBeUndefined();
    cache.set('h', principal('t1'), 0, null);
    expect(cache.get('h', 5_000)).toBeUndefined();
  });
});

describe('notification payloads', () => {
  it('read back what was sent, ignoring the sender nonce', () => {
    expect(parseInvalidation('{"tokenIds":["t1"],"n":"x"}')).toEqual({ tokenIds: ['t1'] });
    expect(parseInvalidation('{"subject":"customer","subjectId":"c1","n":"x"}')).toEqual({
      subject: 'customer',
      subjectId: 'c1',
    });
  });

  it('mean "drop everything" when unreadable', () => {
    for (const payload of [undefined, '', 'nope', '{"tokenIds":[1]}', '{"subject":"anonymous","subjectId":"x"}'])
      expect(parseInvalidation(payload)).toEqual({ all: true });
  });

  it('match principals by token row or subject', () => {
    expect(invalidates({ tokenIds: ['t1'] }, principal('t1'))).toBe(true);
    expect(invalidates({ tokenIds: ['t1'] }, principal('t2'))).toBe(false);
    expect(invalidates({ subject: 'customer', subjectId: 'u1' }, principal('t1', 'user', 'u1'))).toBe(false);
  });
});
