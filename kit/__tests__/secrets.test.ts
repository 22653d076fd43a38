import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { loadSecrets } from '../secrets.js';

/**
 * DATA_DIR/secrets.json (kit/secrets.ts): generated once, kept, and the same for every process that starts
 * on the folder at the same moment (two replicas, the CLI beside `npm start`).
 */
let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'billing-secrets-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const config = (env: Record<string, string> = {}) => loadConfig({ DATA_DIR: dataDir, ...env });

it('generates the secrets once and keeps them, readable only by their owner', async () => {
  const first = await loadSecrets(config());
  expect(first.secret).toMatch(/^[0-9a-f]{64}$/);
  expect(await loadSecrets(config())).toEqual(first);
  const file = path.join(dataDir, 'secrets.json');
  expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(first);
  expect((await stat(file)).mode & 0o777).toBe(0o600);
});

it('gives every loader that starts at once on a new folder the same secrets, and leaves one file', async () => {
  const all = await Promise.all(Array.from({ length: 20 }, () => loadSecrets(config())));
  for (const secrets of all) expect(secrets).toEqual(all[0]);
  expect(JSON.parse(await readFile(path.join(dataDir, 'secrets.json'), 'utf8'))).toEqual(all[0]);
  expect(await readdir(dataDir)).toEqual(['secrets.json']);
});

it('takes SECRET from configuration without storing it, and keeps what was stored before', async () => {
  const file = path.join(dataDir, 'secrets.json');
  await writeFile(file, JSON.stringify({ internalKey: 'k'.repeat(64) }), { mode: 0o600 });
  const secrets = await loadSecrets(config({ SECRET: 's'.repeat(64) }));
  expect(secrets).toMatchObject({ secret: 's'.repeat(64), internalKey: 'k'.repeat(64) });
  const stored = JSON.parse(await readFile(file, 'utf8'));
  expect(stored.secret).toBeUndefined();
  expect(stored).toMatchObject({
    internalKey: 'k'.repeat(64),
    embeddedDatabasePassword: secrets.embeddedDatabasePassword,
  });
});
