import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CUSTOMER_PORTAL_READ, CUSTOMER_PORTAL_WRITE } from '../customers/customer.access.js';
import { LICENSE_KEY_CLIENT, LICENSE_KEYS_READ, LICENSE_KEYS_WRITE } from './license-key.access.js';
import {
  ActivateLicenseKeyInput,
  DeactivateLicenseKeyInput,
  UpdateLicenseKeyInput,
  ValidateLicenseKeyInput,
} from './license-key.inputs.js';
import { LicenseKeyActivationType, LicenseKeyList, LicenseKeyType } from './license-key.type.js';
import { FILTER_REPLACES, mergeFilter } from '../../../kit/graphql/filter.js';
import { LicenseKeyFilterInput } from './license-key.filter.js';
import { CustomerLicenseKeyFilterInput } from './customer-license-key.filter.js';

/** Thin: checks who may call and hands over to the service. */
@Resolver(() => LicenseKeyType)
export class LicenseKeyResolver {
  @Query(() => LicenseKeyList, { description: 'License keys of the organizations the caller may act for.' })
  async licenseKeys(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => LicenseKeyFilterInput, { nullable: true }) filter: LicenseKeyFilterInput | null,
    @Arg('organizationId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) organizationIdArg:
      | string[]
      | null,
    @Arg('benefitId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) benefitIdArg: string[] | null,
    @Arg('status', () => [String], { nullable: true, deprecationReason: FILTER_REPLACES }) statusArg: string[] | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
  ): Promise<LicenseKeyList> {
    authorize(ctx.principal, LICENSE_KEYS_READ);
    const { organizationId, benefitId, status } = mergeFilter(filter, {
      organizationId: organizationIdArg,
      benefitId: benefitIdArg,
      status: statusArg,
    });
    return ctx.services.licenseKeys.list(ctx, {
      organizationIds: organizationId,
      benefitIds: benefitId,
      statuses: status,
      page,
      limit,
    });
  }

  @Query(() => LicenseKeyType, { description: 'A license key with its live activations.' })
  async licenseKey(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<LicenseKeyType> {
    authorize(ctx.principal, LICENSE_KEYS_READ);
    return ctx.services.licenseKeys.get(ctx, id);
  }

  @Query(() => LicenseKeyActivationType)
  async licenseKeyActivation(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('activationId', () => ID) activationId: string,
  ): Promise<LicenseKeyActivationType> {
    authorize(ctx.principal, LICENSE_KEYS_READ);
    return ctx.services.licenseKeys.getActivation(ctx, id, activationId);
  }

  @Mutation(() => LicenseKeyType)
  async updateLicenseKey(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input') input: UpdateLicenseKeyInput,
  ): Promise<LicenseKeyType> {
    authorize(ctx.principal, LICENSE_KEYS_WRITE);
    return ctx.services.licenseKeys.update(ctx, id, input);
  }

  @Mutation(() => LicenseKeyType, { description: 'A new key text for the key; the old one stops validating.' })
  async rotateLicenseKey(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<LicenseKeyType> {
    authorize(ctx.principal, LICENSE_KEYS_WRITE);
    return ctx.services.licenseKeys.rotate(ctx, id);
  }

  @Mutation(() => LicenseKeyType, { description: "Validates a key of the caller's organizations." })
  async validateLicenseKey(
    @Ctx() ctx: BillingContext,
    @Arg('input') input: ValidateLicenseKeyInput,
  ): Promise<LicenseKeyType> {
    authorize(ctx.principal, LICENSE_KEYS_WRITE);
    return ctx.services.licenseKeys.validate(ctx, 'core', input);
  }

  @Mutation(() => LicenseKeyActivationType)
  async activateLicenseKey(
    @Ctx() ctx: BillingContext,
    @Arg('input') input: ActivateLicenseKeyInput,
  ): Promise<LicenseKeyActivationType> {
    authorize(ctx.principal, LICENSE_KEYS_WRITE);
    return ctx.services.licenseKeys.activate(ctx, 'core', input);
  }

  @Mutation(() => Boolean)
  async deactivateLicenseKey(
    @Ctx() ctx: BillingContext,
    @Arg('input') input: DeactivateLicenseKeyInput,
  ): Promise<boolean> {
    authorize(ctx.principal, LICENSE_KEYS_WRITE);
    await ctx.services.licenseKeys.deactivate(ctx, 'core', input);
    return true;
  }

  @Mutation(() => LicenseKeyType, { description: 'Validates a key; anyone holding it (no authentication).' })
  async customerPortalValidateLicenseKey(
    @Ctx() ctx: BillingContext,
    @Arg('input') input: ValidateLicenseKeyInput,
  ): Promise<LicenseKeyType> {
    authorize(ctx.principal, LICENSE_KEY_CLIENT);
    return ctx.services.licenseKeys.validate(ctx, 'client', input);
  }

  @Mutation(() => LicenseKeyActivationType, { description: 'Activates a key; anyone holding it.' })
  async customerPortalActivateLicenseKey(
    @Ctx() ctx: BillingContext,
    @Arg('input') input: ActivateLicenseKeyInput,
  ): Promise<LicenseKeyActivationType> {
    authorize(ctx.principal, LICENSE_KEY_CLIENT);
    return ctx.services.licenseKeys.activate(ctx, 'client', input);
  }

  @Mutation(() => Boolean, { description: 'Deactivates an activation of a key; anyone holding it.' })
  async customerPortalDeactivateLicenseKey(
    @Ctx() ctx: BillingContext,
    @Arg('input') input: DeactivateLicenseKeyInput,
  ): Promise<boolean> {
    authorize(ctx.principal, LICENSE_KEY_CLIENT);
    await ctx.services.licenseKeys.deactivate(ctx, 'client', input);
    return true;
  }

  @Query(() => LicenseKeyList, { description: "The customer's license keys (customer session token)." })
  async customerPortalLicenseKeys(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => CustomerLicenseKeyFilterInput, { nullable: true })
    filter: CustomerLicenseKeyFilterInput | null,
    @Arg('benefitId', () => ID, { nullable: true, deprecationReason: FILTER_REPLACES }) benefitIdArg: string | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
  ): Promise<LicenseKeyList> {
    authorize(ctx.principal, CUSTOMER_PORTAL_READ);
    const { benefitId } = mergeFilter(filter, { benefitId: benefitIdArg });
    return ctx.services.licenseKeys.list(ctx, { benefitIds: benefitId ? [benefitId] : null, page, limit });
  }

  @Query(() => LicenseKeyType, { description: "One of the customer's license keys, with its activations." })
  async customerPortalLicenseKey(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<LicenseKeyType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_READ);
    return ctx.services.licenseKeys.get(ctx, id);
  }

  @Mutation(() => LicenseKeyType, { description: "Rotates one of the customer's keys (customer session token)." })
  async customerPortalRotateLicenseKey(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
  ): Promise<LicenseKeyType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_WRITE);
    return ctx.services.licenseKeys.rotate(ctx, id);
  }
}
