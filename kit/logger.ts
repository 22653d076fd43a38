import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs. Authorization headers, cookies, passwords and raw tokens are redacted at the
 * logger so no call site can leak them by accident.
 */
export function createLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  return pino({
    level,
    base: bindings,
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
