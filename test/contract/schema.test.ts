import { readFileSync } from 'node:fs';
import { parse, validate } from 'graphql';
import { OperationDocuments } from '../../rest-adapter/v1/operations.js';
import { routes } from '../../rest-adapter/v1/routes/index.js';
import { openApiFile, producedOpenApi } from '../../scripts/openapi.js';
import { breakingChanges, produceSchemas, staleFiles, supergraphFile } from '../../scripts/schema.js';

/** The committed contract files are exactly what the code produces, and the REST routes fit the graph. */
describe('contract files', () => {
  it('composes the subgraphs and matches the committed SDL and supergraph', async () => {
    expect(await staleFiles()).toEqual([]);
  });

  it('matches the committed OpenAPI document', () => {
    expect(readFileSync(openApiFile, 'utf8')).toBe(producedOpenApi());
  });

  it('reports removed fields as breaking changes', async () => {
    const current = readFileSync(supergraphFile, 'utf8');
    const produced = await produceSchemas();
    expect(await breakingChanges(current, produced.supergraph)).toEqual([]);
    const withoutSlug = current.replace(/^\s+slug: String!\n/m, '');
    expect(await breakingChanges(current, withoutSlug)).toEqual([expect.stringMatching(/slug/)]);
  });

  it('has a valid named operation in schema/operations for every route', async () => {
    const documents = new OperationDocuments();
    const { api } = await produceSchemas();
    for (const route of routes) {
      const errors = validate(api, parse(documents.source(route.operation)));
      expect({ route: route.operationId, errors: errors.map(e => e.message) }).toEqual({
        route: route.operationId,
        errors: [],
      });
    }
  });

  it('documents every route in the OpenAPI document with its operation id', () => {
    const document = JSON.parse(producedOpenApi());
    for (const route of routes) expect(document.paths[route.path][route.method].operationId).toBe(route.operationId);
  });
});
