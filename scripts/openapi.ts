import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '../kit/paths.js';
import { buildOpenApi } from '../rest-adapter/openapi.js';
import { documentRequestGuards } from '../rest-adapter/guards/request-guards-openapi.js';
import { routes } from '../rest-adapter/v1/routes/index.js';
import { DEFAULT_API_VERSION } from '../rest-adapter/v1/versions/api-versions.js';
import { openApiForVersion } from '../rest-adapter/v1/versions/versioned-openapi.js';

export const openApiFile = path.join(projectRoot(), 'schema', 'openapi.json');

/**
 * The committed OpenAPI document as the code produces it (route table, OAuth and service endpoints):
 * the default version's, which `/openapi.json` serves.
 */
export const producedOpenApi = () =>
  `${JSON.stringify(openApiForVersion(documentRequestGuards(buildOpenApi(routes)), DEFAULT_API_VERSION), null, 2)}\n`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const produced = producedOpenApi();
  if (process.argv.includes('--write')) {
    writeFileSync(openApiFile, produced);
    process.stdout.write('schema/openapi.json written\n');
  } else {
    let committed = '';
    try {
      committed = readFileSync(openApiFile, 'utf8');
    } catch {
      /* missing counts as stale */
    }
    if (committed !== produced) {
      process.stderr.write(
        'schema/openapi.json differs from what the code produces. Run `npm run schema:write` and commit.\n',
      );
      process.exit(1);
    }
    process.stdout.write('openapi check passed\n');
  }
}
