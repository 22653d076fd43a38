import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Kind, parse, print } from 'graphql';

/**
 * What the bench reads from the build it measures: the node flags `npm start` runs the service with,
 * and the GraphQL organizations query the REST list runs. `root` is the build folder (dist/).
 */

/** The node flags of `npm start` (`node <flags> dist/embedded/main.js` in package.json's scripts). */
export function startFlags(root: string): string {
  const manifest = JSON.parse(readFileSync(path.join(root, '..', 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const flags = /\bnode ((?:--\S+\s+)*)dist\/embedded\/main\.js/.exec(manifest.scripts.start)?.[1];
  if (flags === undefined) throw new Error('package.json: the start script no longer runs dist/embedded/main.js');
  return flags.trim();
}

/** The organizations query selecting exactly the fields of OrganizationFields (in `operationsFile`). */
export function organizationsQuery(operationsFile: string): string {
  const document = parse(readFileSync(operationsFile, 'utf8'));
  const fragment = document.definitions.find(
    d => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === 'OrganizationFields',
  );
  if (!fragment) throw new Error(`OrganizationFields not found in ${operationsFile}`);
  return `query BenchOrganizations { organizations { items { ...OrganizationFields } pagination { totalCount maxPage } } }\n\n${print(fragment)}`;
}
