import type { Operation } from './openapi-requests.js';
import type { Reply } from './openapi-send.js';
import { errorShapeProblems, leakProblems } from './response-checks.js';

/** The fuzz test's judgements can fail: each documented shape passes, each departure is reported. */
const operation = { path: '/v1/products/{id}' } as Operation;
const reply = (status: number, body: unknown, headers: Reply['headers'] = {}): Reply => ({
  status,
  headers,
  text: body === undefined ? '' : JSON.stringify(body),
  body,
});
const item = { type: 'int_parsing', loc: ['query', 'page'], msg: 'Input should be a valid integer', input: '1e10' };

it('accepts the documented error shapes', () => {
  for (const r of [
    reply(422, { error: 'RequestValidationError', detail: [item] }),
    reply(422, { error: 'MissingInvoiceBillingDetails', detail: 'Billing name and address are required.' }),
    reply(404, { error: 'ResourceNotFound', detail: 'Not found' }),
    reply(404, { detail: 'Not Found' }),
    reply(401, { error: 'Unauthorized', detail: 'Unauthorized' }, { 'www-authenticate': 'Bearer realm="polar"' }),
    reply(401, { error: 'invalid_token', error_description: 'x' }, { 'www-authenticate': 'Bearer' }),
    reply(403, { error: 'insufficient_scope', error_description: 'x' }),
    reply(429, undefined, { 'retry-after': '1' }),
    reply(200, { id: 'mine' }),
  ])
    expect(errorShapeProblems(operation, r)).toEqual([]);
});

it('reports 5xx answers, items missing a key and bodies of no documented shape', () => {
  expect(errorShapeProblems(operation, reply(500, { error: 'InternalServerError', detail: 'x' }))).toEqual([
    'answered 500',
  ]);
  const { input: _input, ...withoutInput } = item;
  expect(
    errorShapeProblems(operation, reply(422, { error: 'RequestValidationError', detail: [withoutInput] })),
  ).toEqual([expect.stringContaining('without input')]);
  expect(
    errorShapeProblems(operation, reply(422, { error: 'RequestValidationError', detail: [{ ...item, loc: ['x'] }] })),
  ).toEqual([expect.stringContaining('bad loc')]);
  expect(errorShapeProblems(operation, reply(400, { message: 'bad' }))).toEqual([
    expect.stringContaining('none of the documented shapes'),
  ]);
  expect(errorShapeProblems(operation, reply(401, { error: 'Unauthorized', detail: 'Unauthorized' }))).toEqual([
    '401 without WWW-Authenticate',
  ]);
});

it("reports another tenant's id in a 2xx answer, and only in a 2xx", () => {
  const foreign = ['0b6f8c1e-3d2a-4f5b-9c8d-7e6f5a4b3c2d'];
  expect(leakProblems(reply(200, { items: [{ id: foreign[0].toUpperCase() }] }), foreign)).toHaveLength(1);
  expect(leakProblems(reply(422, { detail: [{ input: foreign[0] }] }), foreign)).toEqual([]);
  expect(leakProblems(reply(200, { items: [] }), foreign)).toEqual([]);
});
