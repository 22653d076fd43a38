#!/usr/bin/env node
// The operator CLI's own executable (`npx billing-cli …`, package.json "bin"): it compiles the sources
// (as `npm start` does) with the build's progress line kept off stdout, then runs dist/cli/main.js.
// Run this way, no npm banner (which repeats the command line, password included) reaches stdout,
// so `npx billing-cli bootstrap … --json | jq` reads one JSON line. See docs/cli.md.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (build.status !== 0) {
  process.stderr.write(`error: the build failed (exit ${build.status ?? build.signal})\n`);
  process.exit(1);
}
await import(pathToFileURL(path.join(root, 'dist', 'cli', 'main.js')).href);
