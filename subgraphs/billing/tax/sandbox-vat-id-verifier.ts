import type { TaxId, VatIdCheck, VatIdVerifier } from './tax.contract.js';

/**
 * The sandbox's VAT ids (docs/tax.md#sandbox-test-ids). Each passes the offline checksum, so a
 * checkout accepts it, and each gets a fixed answer without asking VIES, so merchants and tests can
 * rehearse every case. Any other id in the sandbox is `inconclusive`: the sandbox never reaches VIES.
 */
export const SANDBOX_VAT_IDS: Readonly<Record<string, VatIdCheck['result']>> = Object.freeze({
  DE123456788: 'valid',
  FR11123456782: 'valid',
  NL123456782B01: 'valid',
  ESB12345674: 'invalid',
  ATU12345675: 'inconclusive',
});

export class SandboxVatIdVerifier implements VatIdVerifier {
  async check(taxId: TaxId, at: Date): Promise<VatIdCheck> {
    const [value] = taxId;
    const result = SANDBOX_VAT_IDS[value] ?? 'inconclusive';
    return {
      result,
      source: 'sandbox',
      checked_at: at.toISOString(),
      reference: Object.hasOwn(SANDBOX_VAT_IDS, value) ? 'SANDBOX_TEST_ID' : 'SANDBOX_NOT_CHECKED',
      name: result === 'valid' ? 'Sandbox Test Company' : null,
      address: null,
    };
  }
}
