import type { ValidationIssue } from '../../../kit/errors.js';
import type { IngestEvent } from './ingest-body.validation.js';

type Loc = (string | number)[];
const issue = (loc: Loc, type: string, msg: string, input: unknown): ValidationIssue => ({ type, loc, msg, input });
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v);

/** `_cost`: `{amount: decimal with at most 17 digits, 12 after the point, currency: "usd"}`. */
function costIssues(cost: unknown, loc: Loc): ValidationIssue[] {
  if (!isObject(cost)) return [issue(loc, 'dict_type', 'Input should be a valid dictionary', cost)];
  const issues: ValidationIssue[] = [];
  const amount = typeof cost.amount === 'number' ? String(cost.amount) : cost.amount;
  const match = typeof amount === 'string' ? /^-?(\d+)(?:\.(\d+))?$/.exec(amount) : null;
  if (!match) issues.push(issue([...loc, 'amount'], 'decimal_parsing', 'Input should be a valid decimal', cost.amount));
  else if ((match[2] ?? '').length > 12)
    issues.push(
      issue(
        [...loc, 'amount'],
        'decimal_max_places',
        'Decimal input should have no more than 12 decimal places',
        cost.amount,
      ),
    );
  else if (match[1].replace(/^0+/, '').length + (match[2] ?? '').length > 17)
    issues.push(
      issue(
        [...loc, 'amount'],
        'decimal_max_digits',
        'Decimal input should have no more than 17 digits in total',
        cost.amount,
      ),
    );
  if (typeof cost.currency !== 'string' || !cost.currency.includes('usd'))
    issues.push(
      issue([...loc, 'currency'], 'string_pattern_mismatch', "String should match pattern 'usd'", cost.currency),
    );
  return issues;
}

/** `_llm`: vendor, model, optional prompt and response, and integer token counts. */
function llmIssues(llm: unknown, loc: Loc): ValidationIssue[] {
  if (!isObject(llm)) return [issue(loc, 'dict_type', 'Input should be a valid dictionary', llm)];
  const issues: ValidationIssue[] = [];
  for (const key of ['vendor', 'model'])
    if (typeof llm[key] !== 'string')
      issues.push(
        issue(
          [...loc, key],
          llm[key] === undefined ? 'missing' : 'string_type',
          llm[key] === undefined ? 'Field required' : 'Input should be a valid string',
          llm[key],
        ),
      );
  for (const key of ['prompt', 'response'])
    if (llm[key] != null && typeof llm[key] !== 'string')
      issues.push(issue([...loc, key], 'string_type', 'Input should be a valid string', llm[key]));
  for (const key of ['input_tokens', 'output_tokens', 'total_tokens'])
    if (!isInt(llm[key]))
      issues.push(
        issue(
          [...loc, key],
          llm[key] === undefined ? 'missing' : 'int_type',
          llm[key] === undefined ? 'Field required' : 'Input should be a valid integer',
          llm[key],
        ),
      );
  if (llm.cached_input_tokens !== undefined && !isInt(llm.cached_input_tokens))
    issues.push(
      issue([...loc, 'cached_input_tokens'], 'int_type', 'Input should be a valid integer', llm.cached_input_tokens),
    );
  return issues;
}

/** Event metadata: Polar's metadata values (strings of 1-500 characters, numbers, booleans), `_cost`, `_llm`. */
export function eventMetadataIssues(metadata: unknown, loc: Loc): ValidationIssue[] {
  if (metadata == null) return [];
  if (!isObject(metadata)) return [issue(loc, 'dict_type', 'Input should be a valid dictionary', metadata)];
  const issues: ValidationIssue[] = [];
  for (const [key, value] of Object.entries(metadata)) {
    if (key === '_cost') issues.push(...costIssues(value, [...loc, key]));
    else if (key === '_llm') issues.push(...llmIssues(value, [...loc, key]));
    else if (typeof value === 'string') {
      if (value.length < 1 || value.length > 500)
        issues.push(
          issue(
            [...loc, key],
            value.length < 1 ? 'string_too_short' : 'string_too_long',
            'String should have 1 to 500 characters',
            value,
          ),
        );
    } else if (!(typeof value === 'number' && Number.isFinite(value)) && typeof value !== 'boolean')
      issues.push(issue([...loc, key], 'value_error', 'Input should be a string, a number or a boolean', value));
  }
  return issues;
}

/**
 * One event's own issues beyond its shape (read by `readIngestBody`): the timestamp not in the future, one way of
 * naming the customer, members that go with it, the metadata's values. The organization and the customer's
 * existence are the service's.
 */
export function eventIssues(event: IngestEvent, index: number, now: Date): ValidationIssue[] {
  const loc: Loc = ['body', 'events', index];
  const issues: ValidationIssue[] = [];
  if (event.timestamp !== undefined && Date.parse(event.timestamp) > now.getTime())
    issues.push(
      issue([...loc, 'timestamp'], 'value_error', 'Value error, Timestamp must be in the past.', event.timestamp),
    );
  const byId = event.customer_id !== undefined;
  const byExternal = event.external_customer_id !== undefined;
  if (byId === byExternal)
    issues.push(
      issue(
        [...loc, byId ? 'external_customer_id' : 'customer_id'],
        byId ? 'extra_forbidden' : 'missing',
        byId ? 'Name the customer by customer_id or by external_customer_id, not both' : 'Field required',
        byId ? event.external_customer_id : null,
      ),
    );
  if (event.member_id != null && !byId)
    issues.push(issue([...loc, 'member_id'], 'extra_forbidden', 'member_id goes with customer_id', event.member_id));
  if (event.external_member_id != null && !byExternal)
    issues.push(
      issue(
        [...loc, 'external_member_id'],
        'extra_forbidden',
        'external_member_id goes with external_customer_id',
        event.external_member_id,
      ),
    );
  if (event.metadata !== undefined) issues.push(...eventMetadataIssues(event.metadata, [...loc, 'metadata']));
  return issues;
}

/** `_cost.amount` stored as a JSON number (a meter may sum it); served as a string again (usage-event.type.ts). */
export function storedMetadata(metadata: Record<string, unknown> | null | undefined): Record<string, unknown> {
  if (!metadata) return {};
  const cost = metadata._cost as { amount: unknown; currency: string } | undefined;
  return cost ? { ...metadata, _cost: { ...cost, amount: Number(cost.amount) } } : metadata;
}
