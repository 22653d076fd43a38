import { ConfigError } from '../kit/config.js';
import { DomainError, type ValidationIssue } from '../kit/errors.js';

/** A bad or missing argument: reported in one line, exit code 2. */
export class UsageError extends Error {}

/** An expected failure of the operation (unknown user, duplicate...): one line, exit code 1. */
export class CommandFailure extends Error {}

export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EAI_AGAIN',
  '28P01',
  '28000',
  '3D000',
  '57P03',
]);

/**
 * The one line (and exit code) an error becomes. Expected errors never show a stack; an unexpected
 * one shows its message, and its stack only when `withStack` (LOG_LEVEL=debug or trace).
 */
export function describeError(error: unknown, withStack: boolean): { exitCode: number; message: string } {
  if (error instanceof UsageError) return { exitCode: EXIT_USAGE, message: `${error.message} (see --help)` };
  if (error instanceof CommandFailure) return { exitCode: EXIT_FAILURE, message: error.message };
  if (error instanceof ConfigError) return { exitCode: EXIT_FAILURE, message: oneLine(error.message) };
  if (error instanceof DomainError) return { exitCode: EXIT_FAILURE, message: domainMessage(error) };
  const e = error as { code?: string; message?: string; stack?: string } | undefined;
  const code = e?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  if (code && CONNECTION_CODES.has(code))
    return { exitCode: EXIT_FAILURE, message: `cannot use the database: ${oneLine(e?.message ?? code)}` };
  const message = `unexpected failure: ${oneLine(e?.message ?? String(error))}`;
  return { exitCode: EXIT_FAILURE, message: withStack && e?.stack ? `${message}\n${e.stack}` : message };
}

function domainMessage(error: DomainError): string {
  const issues = Array.isArray(error.details) ? (error.details as ValidationIssue[]) : [];
  if (issues.length === 0) return error.message;
  return issues.map(i => (i.loc?.length ? `${i.loc[i.loc.length - 1]}: ${i.msg}` : i.msg)).join('; ');
}

const oneLine = (text: string) =>
  text
    .split('\n')
    .map(l => l.trim())
    .filter(Boolean)
    .reduce((out, line) => (out === '' ? line : `${out}${out.endsWith(':') ? ' ' : '; '}${line}`), '');
