import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../../../kit/config.js';
import { loadGitHubPublicKeys } from '../github-keys.js';

/** GitHub's key document, as configured by an operator: inline, in a file, or both; a bad one stops the start. */

const pem = (type: 'ec' | 'rsa') =>
  (type === 'ec'
    ? generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
    : generateKeyPairSync('rsa', { modulusLength: 2048 })
  ).publicKey.export({ type: 'spki', format: 'pem' }) as string;
const document = (id: string, key = pem('ec')) =>
  JSON.stringify({ public_keys: [{ key_identifier: id, key, is_current: true }] });
const keysOf = (env: Record<string, string>) => loadGitHubPublicKeys(loadConfig({ NODE_ENV: 'test', ...env }));

describe('loadGitHubPublicKeys', () => {
  it('is empty when nothing is configured', () => {
    expect(keysOf({}).size).toBe(0);
  });

  it('reads the inline document and the file, and keeps the keys of both', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'gh-keys-')), 'keys.json');
    writeFileSync(file, document('from-file'));
    const keys = keysOf({ GITHUB_SECRET_SCANNING_KEYS: document('inline'), GITHUB_SECRET_SCANNING_KEYS_FILE: file });
    expect([...keys.keys()].sort()).toEqual(['from-file', 'inline']);
  });

  it.each([
    ['not JSON', '{"public_keys": ['],
    ['another shape', JSON.stringify({ keys: [] })],
    ['a key that is not PEM', JSON.stringify({ public_keys: [{ key_identifier: 'k', key: 'nope' }] })],
    ['an RSA key', document('rsa', pem('rsa'))],
  ])('refuses %s, naming the variable', (_case, value) => {
    expect(() => keysOf({ GITHUB_SECRET_SCANNING_KEYS: value })).toThrow(ConfigError);
    expect(() => keysOf({ GITHUB_SECRET_SCANNING_KEYS: value })).toThrow(/GITHUB_SECRET_SCANNING_KEYS:/);
  });

  it('refuses a file that does not exist', () => {
    expect(() => keysOf({ GITHUB_SECRET_SCANNING_KEYS_FILE: '/nonexistent/keys.json' })).toThrow(
      /GITHUB_SECRET_SCANNING_KEYS_FILE:/,
    );
  });
});
