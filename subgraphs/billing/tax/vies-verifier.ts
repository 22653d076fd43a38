import type { Logger } from '../../../kit/logger.js';
import type { TaxId, VatIdCheck, VatIdVerifier } from './tax.contract.js';

export const VIES_DEFAULT_URL = 'https://ec.europa.eu/taxation_customs/vies/rest-api';
export const VIES_DEFAULT_TIMEOUT_MS = 3000;

export interface ViesOptions {
  /** VIES's REST base URL (config `VIES_URL`). */
  url?: string;
  /** How long one check may take before it is inconclusive (config `VIES_TIMEOUT_MS`). */
  timeoutMs?: number;
  fetch?: typeof fetch;
  logger?: Pick<Logger, 'warn'>;
}

/**
 * VIES's answers that say "could not check now", not "this number is not registered": a member
 * state's register is down or busy, or VIES itself is. They make the check inconclusive.
 */
const UNAVAILABLE = new Set([
  'MS_UNAVAILABLE',
  'TIMEOUT',
  'SERVICE_UNAVAILABLE',
  'MS_MAX_CONCURRENT_REQ',
  'GLOBAL_MAX_CONCURRENT_REQ',
  'SERVER_BUSY',
]);
/** VIES's errors about the number itself: it is not one VIES accepts. */
const REFUSED = new Set(['INVALID_INPUT', 'VAT_BLOCKED']);

interface ViesAnswer {
  valid?: boolean;
  requestIdentifier?: string;
  name?: string;
  address?: string;
  userError?: string;
  errorWrappers?: { error?: string; message?: string }[];
}

/**
 * Checks an EU VAT id against the European Commission's VIES (`POST {url}/check-vat-number`).
 *
 * NOTE: only a definite answer of VIES is `valid` or `invalid`. A timeout, a network error, a 5xx or
 * a member state that cannot answer is `inconclusive`, never `invalid`: the id already passed the
 * offline checksum, and refusing a buyer because a register is down would be wrong (docs/tax.md#vies).
 */
export class ViesVerifier implements VatIdVerifier {
  private readonly url: string;
  private readonly timeoutMs: number;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: ViesOptions = {}) {
    this.url = (options.url ?? VIES_DEFAULT_URL).replace(/\/$/, '');
    this.timeoutMs = options.timeoutMs ?? VIES_DEFAULT_TIMEOUT_MS;
    this.fetch = options.fetch ?? fetch;
  }

  async check(taxId: TaxId, at: Date): Promise<VatIdCheck> {
    const [value, format] = taxId;
    if (format !== 'eu_vat') return inconclusive(at, 'NOT_EU_VAT');
    // Greece is EL in VIES; an id stored by kit/tax already carries EL.
    const countryCode = value.slice(0, 2) === 'GR' ? 'EL' : value.slice(0, 2);
    let answer: ViesAnswer;
    try {
      const response = await this.fetch(`${this.url}/check-vat-number`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ countryCode, vatNumber: value.slice(2) }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      answer = (await response.json().catch(() => ({}))) as ViesAnswer;
      if (response.status >= 500 && answer.valid === undefined && !answer.errorWrappers?.length)
        return this.unavailable(at, `HTTP_${response.status}`);
    } catch (error) {
      // The timeout's DOMException may come from another realm (tests): compare its name only.
      const timedOut = (error as { name?: string } | null)?.name === 'TimeoutError';
      return this.unavailable(at, timedOut ? 'TIMEOUT' : 'NETWORK_ERROR');
    }
    return this.interpret(answer, at);
  }

  private interpret(answer: ViesAnswer, at: Date): VatIdCheck {
    const error = answer.errorWrappers?.[0]?.error;
    if (error) return REFUSED.has(error) ? { ...base(at, error), result: 'invalid' } : this.unavailable(at, error);
    if (answer.userError && UNAVAILABLE.has(answer.userError)) return this.unavailable(at, answer.userError);
    if (typeof answer.valid !== 'boolean') return this.unavailable(at, 'UNEXPECTED_ANSWER');
    return {
      ...base(at, answer.requestIdentifier || null),
      result: answer.valid ? 'valid' : 'invalid',
      name: shown(answer.name),
      address: shown(answer.address),
    };
  }

  private unavailable(at: Date, reference: string): VatIdCheck {
    this.options.logger?.warn({ reference }, 'VIES could not check a VAT id: the check is inconclusive');
    return inconclusive(at, reference);
  }
}

function base(at: Date, reference: string | null): Omit<VatIdCheck, 'result'> {
  return { source: 'vies', checked_at: at.toISOString(), reference, name: null, address: null };
}

function inconclusive(at: Date, reference: string): VatIdCheck {
  return { ...base(at, reference), result: 'inconclusive' };
}

/** VIES answers `---` where a member state does not disclose the trader's name or address. */
function shown(text: string | undefined): string | null {
  const trimmed = text?.trim();
  return trimmed && trimmed !== '---' ? trimmed : null;
}
