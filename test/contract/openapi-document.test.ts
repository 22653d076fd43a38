import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { ALL_SCOPES } from '../../kit/scopes.js';
import { buildOpenApi } from '../../rest-adapter/openapi.js';
import { routes } from '../../rest-adapter/v1/routes/index.js';
import { SCOPES_SUPPORTED } from '../../subgraphs/identity/oauth2/oauth2.constants.js';
import { openApiFile, producedOpenApi } from '../../scripts/openapi.js';

/**
 * The OpenAPI document is valid OpenAPI 3.1 (the JSON schema of the specification, with
 * @seriousme/openapi-schema-validator, which also resolves every $ref) and says what a client needs:
 * who may call each operation, what it sends, and the body of every answer.
 */

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const committed = () => JSON.parse(readFileSync(openApiFile, 'utf8'));

async function validate(document: unknown): Promise<{ valid: boolean; errors: unknown }> {
  const validator = new Validator();
  const result = await validator.validate(document as Record<string, unknown>);
  return { valid: result.valid && validator.version === '3.1', errors: result.errors };
}

function operations(document: any): { key: string; op: any }[] {
  return Object.entries<any>(document.paths).flatMap(([path, item]) =>
    METHODS.filter(m => item[m]).map(m => ({ key: `${m.toUpperCase()} ${path}`, op: item[m] })),
  );
}

/** A `{$ref: '#/components/...'}` followed once. */
const deref = (document: any, value: any) =>
  value?.$ref
    ? value.$ref
        .slice(2)
        .split('/')
        .reduce((node: any, key: string) => node[key], document)
    : value;

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1, committed and as served with a server URL', async () => {
    expect(await validate(committed())).toEqual({ valid: true, errors: undefined });
    expect(await validate(buildOpenApi(routes, 'https://billing.example'))).toEqual({ valid: true, errors: undefined });
  });

  // `npm start` builds one document per environment in one process: the second must be the first again
  // (it once carried a second Idempotency-Key on the OAuth and GraphQL operations).
  it('is the same document when built again in the same process, each parameter once per operation', () => {
    const first = producedOpenApi();
    expect(producedOpenApi()).toBe(first);
    const repeated = operations(JSON.parse(first)).flatMap(({ key, op }) => {
      const names = (op.parameters ?? []).map((p: any) => p.$ref ?? `${p.in} ${p.name}`);
      return names
        .filter((name: string, index: number) => names.indexOf(name) !== index)
        .map((n: string) => `${key}: ${n}`);
    });
    expect(repeated).toEqual([]);
  });

  it('fails the validator when it is broken', async () => {
    const danglingRef = committed();
    danglingRef.paths['/v1/oauth2/token'].post.requestBody.content['application/x-www-form-urlencoded'].schema.$ref =
      '#/components/schemas/Missing';
    expect((await validate(danglingRef)).valid).toBe(false);
    const undescribed = committed();
    undescribed.paths['/healthz'].get.responses['200'] = {};
    expect((await validate(undescribed)).valid).toBe(false);
  });

  it('gives every operation a unique id, a security requirement and a body schema for every error', () => {
    const document = committed();
    const ids = operations(document).map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const problems: string[] = [];
    for (const { key, op } of operations(document)) {
      if (!Array.isArray(op.security)) problems.push(`${key}: no security`);
      for (const [status, response] of Object.entries<any>(op.responses)) {
        const resolved = deref(document, response);
        // A 429 has an empty body by design (docs/interface.md#errors): it documents Retry-After instead.
        if (status === '429') {
          if (!resolved.headers?.['Retry-After'] || resolved.content)
            problems.push(`${key} 429: not an empty Retry-After answer`);
          continue;
        }
        if (
          Number(status) >= 400 &&
          !resolved.content?.['application/json']?.schema &&
          !resolved.content?.['text/html']
        )
          problems.push(`${key} ${status}: no body schema`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('keeps the route table operation ids the SDK knows', () => {
    const document = committed();
    for (const route of routes) expect(document.paths[route.path][route.method].operationId).toBe(route.operationId);
  });

  it('documents the OAuth 2.0 / OIDC endpoints with form bodies where the RFCs want them', () => {
    const document = committed();
    for (const path of ['/v1/oauth2/token', '/v1/oauth2/revoke', '/v1/oauth2/introspect']) {
      expect(Object.keys(document.paths[path].post.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
      expect(Object.keys(document.paths[path].post.responses)).toEqual(expect.arrayContaining(['200', '400', '401']));
    }
    expect(document.paths['/v1/oauth2/token'].post.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/TokenResponse',
    });
    expect(document.paths['/v1/oauth2/register'].post.responses['201']).toBeDefined();
    expect(Object.keys(document.paths['/v1/oauth2/register/{client_id}']).sort()).toEqual(['delete', 'get', 'put']);
    expect(Object.keys(document.paths['/v1/oauth2/userinfo']).sort()).toEqual(['get', 'post']);
    expect(document.paths['/v1/oauth2/userinfo'].get.security).toEqual([{ oauth2: ['openid'] }]);
  });

  it('declares bearer and OAuth 2.0 authorization code security with every grantable scope described', () => {
    const { securitySchemes } = committed().components;
    expect(securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const flow = securitySchemes.oauth2.flows.authorizationCode;
    expect(flow).toMatchObject({ authorizationUrl: '/oauth2/authorize', tokenUrl: '/v1/oauth2/token' });
    expect(Object.keys(flow.scopes)).toEqual([...SCOPES_SUPPORTED]);
    for (const description of Object.values<string>(flow.scopes)) expect(description).toMatch(/\w{3}/);
    // The two scopes no client can be granted are named where the bearer scheme is described.
    for (const scope of ALL_SCOPES.filter(s => !SCOPES_SUPPORTED.includes(s)))
      expect(securitySchemes.bearer.description).toContain(scope);
  });

  it('lets OAuth tokens call the operations their scopes allow, and only those', () => {
    const document = committed();
    expect(document.paths['/v1/products/'].get.security).toEqual([
      { bearer: ['products:read'] },
      { bearer: ['products:write'] },
      { oauth2: ['products:read'] },
      { oauth2: ['products:write'] },
    ]);
    // Organization access tokens are managed with personal tokens only; customer routes take customer sessions.
    expect(document.paths['/v1/organization-access-tokens/'].post.security).toEqual([
      { bearer: ['organization_access_tokens:write'] },
    ]);
    expect(document.paths['/v1/customer-portal/customers/me'].get.security).toEqual([
      { bearer: ['customer_portal:read'] },
      { bearer: ['customer_portal:write'] },
    ]);
  });
});
