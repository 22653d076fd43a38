import { isUuid } from '../../../kit/uuid.js';
import { Field, GraphQLISODateTime, ID, InputType } from 'type-graphql';
import { PolarRequestValidationError, type ValidationIssue } from '../../../kit/errors.js';
import { CustomerCancellationReason, SubscriptionStatus } from '../shared/enums.js';
import { Metadata } from '../shared/scalars.js';
import { SubscriptionStatusEnum } from '../shared/status-enums.js';

/**
 * The filters of `subscriptions:list` (docs/interface.md#endpoints): every multi-value filter is a list (one value is
 * a list of one), `metadata` maps a key to one value or several (several values of one key: any of
 * them; several keys: all of them).
 */
@InputType('BillingSubscriptionFilter')
export class SubscriptionFilterInput {
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
  @Field(() => [ID], { nullable: true }) productId?: string[] | null;
  @Field(() => [ID], { nullable: true }) customerId?: string[] | null;
  @Field(() => [String], { nullable: true, description: "Customers' external ids." }) externalCustomerId?:
    | string[]
    | null;
  @Field(() => [ID], { nullable: true }) discountId?: string[] | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Deprecated: true = status trialing or active, false = any other status.',
  })
  active?: boolean | null;
  @Field(() => [SubscriptionStatusEnum], { nullable: true }) status?: string[] | null;
  @Field(() => Boolean, { nullable: true }) cancelAtPeriodEnd?: boolean | null;
  @Field(() => [String], { nullable: true, description: 'CustomerCancellationReason values.' })
  customerCancellationReason?: string[] | null;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Canceled at or after (inclusive).' })
  canceledAtAfter?: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Canceled at or before (inclusive).' })
  canceledAtBefore?: Date | null;
  @Field(() => Metadata, { nullable: true, description: 'key → value or [values]' }) metadata?: Record<
    string,
    unknown
  > | null;
}

/** The filters as the repository takes them: validated, normalised, every list non-empty or absent. */
export interface SubscriptionFilters {
  organizationId?: string[];
  productId?: string[];
  customerId?: string[];
  externalCustomerId?: string[];
  discountId?: string[];
  active?: boolean;
  status?: SubscriptionStatus[];
  cancelAtPeriodEnd?: boolean;
  customerCancellationReason?: CustomerCancellationReason[];
  canceledAtAfter?: Date;
  canceledAtBefore?: Date;
  /** key → accepted values (as text, compared with the stored value's text). */
  metadata?: Record<string, string[]>;
}

const STATUSES = new Set<string>(Object.values(SubscriptionStatus));
const REASONS = new Set<string>(Object.values(CustomerCancellationReason));

const list = <T>(values: readonly T[] | null | undefined): T[] | undefined =>
  values?.length ? [...new Set(values)] : undefined;

/**
 * Checks what the REST edge has already checked (GraphQL clients get the same 422 answers) and
 * normalises the input.
 * @throws PolarRequestValidationError
 */
export function normaliseFilters(input: SubscriptionFilterInput | null | undefined): SubscriptionFilters {
  const f = input ?? {};
  const issues: ValidationIssue[] = [];
  const uuids = (name: string, values: string[] | null | undefined) => {
    for (const v of values ?? [])
      if (!isUuid(v))
        issues.push({ type: 'uuid_parsing', loc: ['query', name], msg: 'Input should be a valid UUID', input: v });
    return list(values?.map(v => v.toLowerCase()));
  };
  const enums = <T extends string>(name: string, values: string[] | null | undefined, allowed: Set<string>) => {
    for (const v of values ?? []) {
      if (!allowed.has(v))
        issues.push({
          type: 'enum',
          loc: ['query', name],
          msg: `Input should be ${[...allowed].map(a => `'${a}'`).join(', ')}`,
          input: v,
        });
    }
    return list(values) as T[] | undefined;
  };
  const out: SubscriptionFilters = {
    organizationId: uuids('organization_id', f.organizationId),
    productId: uuids('product_id', f.productId),
    customerId: uuids('customer_id', f.customerId),
    externalCustomerId: list(f.externalCustomerId),
    discountId: uuids('discount_id', f.discountId),
    active: f.active ?? undefined,
    status: enums<SubscriptionStatus>('status', f.status, STATUSES),
    cancelAtPeriodEnd: f.cancelAtPeriodEnd ?? undefined,
    customerCancellationReason: enums<CustomerCancellationReason>(
      'customer_cancellation_reason',
      f.customerCancellationReason,
      REASONS,
    ),
    canceledAtAfter: f.canceledAtAfter ?? undefined,
    canceledAtBefore: f.canceledAtBefore ?? undefined,
  };
  if (f.metadata) {
    const metadata: Record<string, string[]> = {};
    for (const [key, raw] of Object.entries(f.metadata)) {
      const values = (Array.isArray(raw) ? raw : [raw]).filter(v => v !== null && v !== undefined);
      if (!values.length || values.some(v => typeof v === 'object')) {
        issues.push({
          type: 'value_error',
          loc: ['query', 'metadata', key],
          msg: 'Metadata filter values must be strings, numbers or booleans.',
          input: raw,
        });
        continue;
      }
      metadata[key] = [...new Set(values.map(v => String(v)))];
    }
    if (Object.keys(metadata).length) out.metadata = metadata;
  }
  if (issues.length) throw new PolarRequestValidationError(issues);
  for (const key of Object.keys(out) as (keyof SubscriptionFilters)[]) if (out[key] === undefined) delete out[key];
  return out;
}
