// The module hooks the test run is started with (`node --import ./test/support/module-hooks.mjs …`; Jest's
// workers inherit the flag), docs/testing.md. Two jobs:
// - The TypeScript sources, imported directly: each `.ts` file compiled by SWC with the project's `.swcrc`
//   (legacy decorators with their metadata, which MikroORM and type-graphql read, and which Node's own type
//   stripping does not emit), and a relative `./x.js` import, as the sources write it (NodeNext), answered
//   by `./x.ts` when no `.js` file is there.
// - Workers that are replaced when they have grown: jest-light-runner's pool is handed
//   test/support/recycling-pool.mjs instead of the pool package itself.
// Synchronous hooks in the importing thread (`module.registerHooks`): the asynchronous `register` kind
// passes every import of every package through a second thread, which tripled an environment's import.
// Plain ESM: it runs before any TypeScript can.
import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';
import { transformSync } from '@swc/core';

const SWCRC = JSON.parse(readFileSync(new URL('../../.swcrc', import.meta.url), 'utf8'));
const options = { jsc: SWCRC.jsc, module: SWCRC.module, sourceMaps: 'inline', swcrc: false, configFile: false };
const RECYCLING_POOL = new URL('./recycling-pool.mjs', import.meta.url).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'tinypool' && context.parentURL?.endsWith('/node_modules/jest-light-runner/src/index.js')) {
      return { url: RECYCLING_POOL, format: 'module', shortCircuit: true };
    }
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      const relative = specifier.startsWith('./') || specifier.startsWith('../');
      if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !relative || !specifier.endsWith('.js')) throw error;
      return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
    }
  },
  load(url, context, nextLoad) {
    const path = url.startsWith('file:') ? fileURLToPath(url) : '';
    if (!path.endsWith('.ts') || path.endsWith('.d.ts')) return nextLoad(url, context);
    const { code } = transformSync(readFileSync(path, 'utf8'), { ...options, filename: path });
    return { format: 'module', source: code, shortCircuit: true };
  },
});
