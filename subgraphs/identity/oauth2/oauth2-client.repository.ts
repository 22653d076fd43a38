import type { EntityManager } from '@mikro-orm/postgresql';
import { OAuth2Client } from './oauth2-client.entity.js';

/**
 * Registered OAuth clients. "Live" is not deleted. A leaked credential is replaced by a conditional
 * UPDATE on the leaked hash, so of two concurrent reports exactly one replaces it.
 */
export class OAuth2ClientRepository {
  constructor(private readonly em: EntityManager) {}

  findLiveByClientId(clientId: string): Promise<OAuth2Client | null> {
    return this.em.findOne(OAuth2Client, { clientId, deletedAt: null });
  }

  /** The public `client_id` of a live client row (principal resolution of an OAuth access token). */
  clientIdOfLive(id: string): Promise<Pick<OAuth2Client, 'clientId'> | null> {
    return this.em.findOne(OAuth2Client, { id, deletedAt: null }, { fields: ['clientId'] });
  }

  /** The client's name, deleted or not (the label of a leak e-mail). */
  async nameOf(id: string): Promise<string | null> {
    return (await this.em.findOne(OAuth2Client, { id }, { fields: ['clientName'] }))?.clientName ?? null;
  }

  findLiveBySecretHash(clientSecretHash: string): Promise<OAuth2Client | null> {
    return this.em.findOne(OAuth2Client, { clientSecretHash, deletedAt: null });
  }

  findLiveByRegistrationTokenHash(registrationTokenHash: string): Promise<OAuth2Client | null> {
    return this.em.findOne(OAuth2Client, { registrationTokenHash, deletedAt: null });
  }

  /** Replaces the secret if it is still `leaked`; the number of rows changed (0 or 1). */
  replaceSecretHash(id: string, leaked: string, replacement: string): Promise<number> {
    return this.em.nativeUpdate(OAuth2Client, { id, clientSecretHash: leaked }, { clientSecretHash: replacement });
  }

  /** Replaces the registration token if it is still `leaked`; the number of rows changed (0 or 1). */
  replaceRegistrationTokenHash(id: string, leaked: string, replacement: string): Promise<number> {
    return this.em.nativeUpdate(
      OAuth2Client,
      { id, registrationTokenHash: leaked },
      { registrationTokenHash: replacement },
    );
  }
}
