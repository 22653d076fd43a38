import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** Polar's MetricDashboard (docs/metrics.md#dashboards): a named list of metric slugs an organization keeps. */
@Entity({ tableName: 'metric_dashboards', schema: 'billing' })
@Index({ properties: ['organizationId', 'createdAt'] })
export class MetricDashboard {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'text' }) name!: string;
  @Property({ type: 'json' }) metrics: string[] = [];
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
}
