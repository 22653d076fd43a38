import { pino, type Logger } from 'pino';
import { currentRequestId } from './request-scope.js';

export type { Logger };

/**
 * Structured JSON logs. Authorization headers, cookies, passwords and raw tokens are redacted at the
 * logger so no call site can leak them by accident. A line written while a request is served carries
 * that request's `requestId` (kit/request-scope.ts), whether or not its call site passes one.
 */
export function createLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  return pino({
    level,
    base: bindings,
    mixin: () => {
      const requestId = currentRequestId();
      return requestId === undefined ? {} : { requestId };
    },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        '*.password',
        '*.token',
        '*.secret',
        'password',
        'token',
      ],
      censor: '[redacted]',
    },
  });
}
