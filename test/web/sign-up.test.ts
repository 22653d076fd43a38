import { call } from '../support/stack.js';
import { cookieLine, csrfTokenOf, WebClient } from './client.js';
import { base, owner, PASSWORD, query, useWebPagesStack } from './pages-support.js';

useWebPagesStack();

describe('sign-up', () => {
  it('creates the user, signs them in, and lists no organization yet', async () => {
    const email = `new-${Date.now()}@example.com`;
    const client = new WebClient(base);
    const page = await client.get('/signup');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<label for="signup-email">Email</label>');
    expect(page.text).toContain('<label for="signup-confirm">Confirm password</label>');
    expect(page.text).toMatch(/<a href="\/login">Log in<\/a>/);
    const csrf = csrfTokenOf(page.text);

    const mismatch = await client.post('/signup', {
      email,
      password: 'long enough 1',
      password_confirmation: 'long enough 2',
      csrf_token: csrf,
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.text).toContain('The passwords do not match.');
    const short = await client.post('/signup', {
      email,
      password: 'short',
      password_confirmation: 'short',
      csrf_token: csrf,
    });
    expect(short.status).toBe(400);
    expect(short.text).toContain('at least 8 characters');
    expect(await query('select 1 from identity.users where email = $1', [email])).toHaveLength(0);

    const res = await client.post('/signup', {
      email,
      password: 'long enough 1',
      password_confirmation: 'long enough 1',
      csrf_token: csrf,
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard');
    expect(cookieLine(res, 'polar_session')).toMatch(/^polar_session=polar_us_/);
    const rows = await query('select id, password_hash from identity.users where email = $1', [email]);
    expect(rows).toHaveLength(1);
    expect(rows[0].password_hash).toMatch(/^scrypt\$/);
    const settings = await client.get('/settings');
    expect(settings.status).toBe(200);
    expect(settings.text).toContain('You are not a member of any organization yet.');

    const again = new WebClient(base);
    const duplicate = await again.post('/signup', {
      email,
      password: 'long enough 1',
      password_confirmation: 'long enough 1',
      csrf_token: await again.csrfFrom('/signup'),
    });
    expect(duplicate.status).toBe(400);
    expect(duplicate.text).toContain('already exists');
  });

  it('lets a new user create an organization they then own', async () => {
    const email = `founder-${Date.now()}@example.com`;
    const client = new WebClient(base);
    const csrf = await client.csrfFrom('/signup');
    await client.post('/signup', { email, password: PASSWORD, password_confirmation: PASSWORD, csrf_token: csrf });
    const slug = `founded-${Date.now()}`;
    const created = await client.post('/settings/organizations', {
      name: 'Founded <Inc>',
      slug,
      csrf_token: await client.csrfFrom('/settings'),
    });
    expect(created.status).toBe(303);
    const page = await client.get(created.location!);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Founded &lt;Inc&gt;</h1>');
    expect(page.text).toContain('your role: owner');
    const taken = await client.post('/settings/organizations', {
      name: 'Again',
      slug,
      csrf_token: await client.csrfFrom('/settings'),
    });
    expect(taken.status).toBe(400);
    expect(taken.text).toContain('already exists');
  });
});

describe('body parsing', () => {
  it('reads API bodies only as JSON: a form there is a 422 at `body`, as FastAPI answers it', async () => {
    const res = await call(base, 'POST', '/v1/organizations/', {
      token: owner.pat,
      rawBody: 'name=x&slug=y',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: 'RequestValidationError',
      detail: [
        {
          type: 'model_attributes_type',
          loc: ['body'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: 'name=x&slug=y',
        },
      ],
    });
  });
});
