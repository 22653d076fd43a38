import { randomInt, timingSafeEqual } from 'node:crypto';
import { HmacSha256 } from './hmac.js';

/**
 * Secrets are `prefix + 37 random base62 characters + 6-character base62 CRC32 checksum`
 * (docs/polar/auth.md#token-formats). The checksum lets secret scanners and our own lookup reject a mistyped or
 * made-up token without touching the database. Only `hashToken` output is ever stored.
 */
export const TOKEN_PREFIXES = {
  personalAccessToken: 'polar_pat_',
  organizationAccessToken: 'polar_oat_',
  userSession: 'polar_us_',
  customerSession: 'polar_cst_',
  memberSession: 'polar_mst_',
  oauthUserAccessToken: 'polar_at_u_',
  oauthOrganizationAccessToken: 'polar_at_o_',
  oauthUserRefreshToken: 'polar_rt_u_',
  oauthOrganizationRefreshToken: 'polar_rt_o_',
  authorizationCode: 'polar_ac_',
  clientId: 'polar_ci_',
  clientSecret: 'polar_cs_',
  clientRegistrationToken: 'polar_crt_',
} as const;

export type TokenPrefix = (typeof TOKEN_PREFIXES)[keyof typeof TOKEN_PREFIXES];

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 37;
const CHECKSUM_LENGTH = 6;

function base62(value: number, width: number): string {
  let out = '';
  let n = value;
  while (n > 0) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out.padStart(width, '0');
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[i] = c >>> 0;
  }
  return table;
})();

export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export function generateToken(prefix: TokenPrefix): string {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(62)];
  return `${prefix}${random}${base62(crc32(random), CHECKSUM_LENGTH)}`;
}

/** True when the token has the given prefix, the right length and a matching checksum. */
export function hasValidChecksum(token: string, prefix: string): boolean {
  if (!token.startsWith(prefix)) return false;
  const body = token.slice(prefix.length);
  if (body.length !== RANDOM_LENGTH + CHECKSUM_LENGTH || !/^[0-9A-Za-z]+$/.test(body)) return false;
  const random = body.slice(0, RANDOM_LENGTH);
  const checksum = body.slice(RANDOM_LENGTH);
  return timingSafeEqual(Buffer.from(checksum), Buffer.from(base62(crc32(random), CHECKSUM_LENGTH)));
}

/** HMAC-SHA256 (hex) keyed with the server secret: what the database stores instead of a token. */
export function hashToken(token: string, secret: string): string {
  let key = tokenKeys.get(secret);
  if (!key) {
    key = new HmacSha256(secret);
    // A process has one secret per environment; tests make more.
    if (tokenKeys.size >= 16) tokenKeys.clear();
    tokenKeys.set(secret, key);
  }
  return key.digest([token], 'hex');
}

/** Every request hashes its bearer token: the server secret's key is prepared once (kit/hmac.ts). */
const tokenKeys = new Map<string, HmacSha256>();

/** The prefix a raw bearer starts with, or undefined when it is none of ours. */
export function prefixOf(token: string): TokenPrefix | undefined {
  // Longest prefixes first so `polar_at_u_` is not mistaken for something shorter.
  const prefixes = Object.values(TOKEN_PREFIXES).sort((a, b) => b.length - a.length);
  return prefixes.find(p => token.startsWith(p));
}
