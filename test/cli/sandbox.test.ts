import { call } from '../support/stack.js';
import { cli, cliJson, slug, url, useCliStack } from './support.js';

useCliStack();

describe('sandbox', () => {
  test('--env sandbox writes to the sandbox database', async () => {
    const s = slug('sbx');
    const output = await cliJson(
      'bootstrap',
      '--env',
      'sandbox',
      '--email',
      `${s}@example.com`,
      '--password',
      'sandbox password',
      '--org-name',
      'Sandbox Org',
      '--org-slug',
      s,
    );

    const inSandbox = await call(url('sandbox'), 'GET', '/v1/organizations/', {
      token: output.organization_access_token,
    });
    expect(inSandbox.status).toBe(200);
    expect(inSandbox.headers.get('x-polar-sandbox')).toBe('1');
    expect(inSandbox.body.items).toEqual([expect.objectContaining({ id: output.organization_id, slug: s })]);

    const inProduction = await call(url('production'), 'GET', '/v1/organizations/', {
      token: output.organization_access_token,
    });
    expect(inProduction.status).toBe(401);
    expect(inProduction.body.error).toBe('invalid_token');

    // The same slug and e-mail are free in production: separate data.
    const production = await cli(
      'bootstrap',
      '--email',
      `${s}@example.com`,
      '--password',
      'sandbox password',
      '--org-name',
      'Sandbox Org',
      '--org-slug',
      s,
      '--json',
    );
    expect(production.code).toBe(0);
  });
});
