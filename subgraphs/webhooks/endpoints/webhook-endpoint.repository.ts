import type { EntityManager } from '@mikro-orm/postgresql';
import { totalFromPage } from '../../../kit/graphql/pagination.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';

/** Reads of webhook endpoints: live ones (not deleted) of the organizations the tenant rule gives. */
export class WebhookEndpointRepository {
  constructor(private readonly em: EntityManager) {}

  /** One page, newest first, and the total (counted only when the page is full). */
  async page(
    organizationIds: string[],
    window: { limit: number; offset: number },
  ): Promise<{ items: WebhookEndpoint[]; total: number }> {
    const where = { organizationId: { $in: organizationIds }, deletedAt: null };
    const items = await this.em.find(WebhookEndpoint, where, {
      orderBy: { createdAt: 'desc', id: 'desc' },
      limit: window.limit,
      offset: window.offset,
    });
    const total = totalFromPage(items.length, window) ?? (await this.em.count(WebhookEndpoint, where));
    return { items, total };
  }

  /** A live endpoint of one of `organizationIds`. */
  findLive(id: string, organizationIds: string[]): Promise<WebhookEndpoint | null> {
    return this.em.findOne(WebhookEndpoint, { id, organizationId: { $in: organizationIds }, deletedAt: null });
  }
}
