import { createHmac, randomBytes } from 'node:crypto';
import { HmacSha256 } from '../hmac.js';
import { hashToken } from '../tokens.js';

describe('HmacSha256', () => {
  it('equals createHmac for keys shorter than, as long as and longer than a SHA-256 block, used many times', () => {
    for (const key of [
      Buffer.alloc(0),
      randomBytes(1),
      randomBytes(32),
      randomBytes(64),
      randomBytes(65),
      randomBytes(200),
    ]) {
      const mac = new HmacSha256(key);
      for (let n = 0; n < 3; n++) {
        const parts = [`msg_${n}.${n}.`, randomBytes(n * 300)];
        const expected = createHmac('sha256', key).update(parts[0]).update(parts[1]).digest();
        expect(mac.digest(parts, 'base64')).toBe(expected.toString('base64'));
        expect(mac.digest(parts, 'hex')).toBe(expected.toString('hex'));
      }
    }
  });

  it('takes a string key as its UTF-8 bytes, as createHmac does', () => {
    const key = 'sécret ✓';
    expect(new HmacSha256(key).digest(['päyload'], 'hex')).toBe(
      createHmac('sha256', key).update('päyload', 'utf8').digest('hex'),
    );
  });

  it('hashToken still stores what createHmac gave, for every secret it has seen', () => {
    for (const secret of ['a', 'b'.repeat(80), 'a']) {
      expect(hashToken('polar_oat_x', secret)).toBe(createHmac('sha256', secret).update('polar_oat_x').digest('hex'));
    }
  });
});
