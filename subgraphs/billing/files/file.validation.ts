import type { ValidationIssue } from '../../../kit/errors.js';
import type { CreateFileInput } from './file.inputs.js';

/**
 * Limits of the service's own storage (PostgreSQL, no object store): Polar's web client uploads
 * 10 MB parts, so a part may hold up to 16 MiB; a file up to 1 GiB; S3's 10,000 parts.
 */
export const MAX_PART_BYTES = 16 * 1024 * 1024;
export const MAX_FILE_BYTES = 1024 * 1024 * 1024;
export const MAX_PARTS = 10_000;
/** One stored slice: its base64 stays under the 1 MiB internal request limit of the distributed topology. */
export const CHUNK_BYTES = 512 * 1024;

const SHA256_BASE64 = /^[A-Za-z0-9+/]{43}=$/;
export const isSha256Base64 = (value: string) => SHA256_BASE64.test(value);

const issue = (loc: (string | number)[], msg: string, input: unknown): ValidationIssue => ({
  type: 'value_error',
  loc: ['body', ...loc],
  msg: `Value error, ${msg}`,
  input,
});

/** The issues of a file creation (empty when valid): the service, the size, the checksum and the upload plan. */
export function createFileIssues(input: CreateFileInput): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (input.service !== 'downloadable')
    issues.push(issue(['service'], "only 'downloadable' files are stored by this service", input.service));
  if (!input.name.trim()) issues.push(issue(['name'], 'the name must not be empty', input.name));
  if (!Number.isSafeInteger(input.size) || input.size < 0 || input.size > MAX_FILE_BYTES)
    issues.push(issue(['size'], `the size must be a whole number of bytes from 0 to ${MAX_FILE_BYTES}`, input.size));
  if (input.checksumSha256Base64 != null && !isSha256Base64(input.checksumSha256Base64))
    issues.push(
      issue(
        ['checksum_sha256_base64'],
        'expected the base64 of a SHA-256 digest (44 characters)',
        input.checksumSha256Base64,
      ),
    );
  const parts = [...input.parts].sort((a, b) => a.number - b.number);
  if (!parts.length || parts.length > MAX_PARTS) {
    issues.push(issue(['upload', 'parts'], `declare from 1 to ${MAX_PARTS} parts`, parts.length));
    return issues;
  }
  let expectedStart = 0;
  parts.forEach((part, index) => {
    const loc = ['upload', 'parts', index];
    if (part.number !== index + 1)
      issues.push(issue([...loc, 'number'], 'parts are numbered 1, 2, 3 … without gaps or repeats', part.number));
    else if (part.chunkStart !== expectedStart || !(part.chunkEnd >= part.chunkStart))
      issues.push(
        issue(loc, `part ${part.number} must start at byte ${expectedStart} and end (exclusive) at or after it`, part),
      );
    else if (part.chunkEnd - part.chunkStart > MAX_PART_BYTES)
      issues.push(issue(loc, `a part holds at most ${MAX_PART_BYTES} bytes`, part));
    if (part.checksumSha256Base64 != null && !isSha256Base64(part.checksumSha256Base64))
      issues.push(
        issue([...loc, 'checksum_sha256_base64'], 'expected the base64 of a SHA-256 digest', part.checksumSha256Base64),
      );
    expectedStart = part.chunkEnd;
  });
  if (!issues.length && expectedStart !== input.size)
    issues.push(
      issue(['upload', 'parts'], `the parts must cover the file's ${input.size} bytes exactly`, expectedStart),
    );
  return issues;
}
