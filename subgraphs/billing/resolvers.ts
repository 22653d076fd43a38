import type { NonEmptyArray } from 'type-graphql';
import type { ReferenceResolvers } from '../../kit/graphql/federation.js';

/** Every resolver class and reference resolver of the billing subgraph. Each domain adds its own. */
export const billingResolvers: Function[] = [];

export const billingReferenceResolvers: ReferenceResolvers = {};

export const resolversForSchema = () => billingResolvers as unknown as NonEmptyArray<Function>;
