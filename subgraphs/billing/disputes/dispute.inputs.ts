import { Field, ID, InputType } from 'type-graphql';
import { MinorUnits } from '../shared/scalars.js';

@InputType('DisputeFilter')
export class DisputeFilterInput {
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
  @Field(() => [ID], { nullable: true }) orderId?: string[] | null;
  @Field(() => [String], { nullable: true }) status?: string[] | null;
}

/** The sandbox's rehearsal of a chargeback (docs/disputes.md#rehearsing-in-the-sandbox). */
@InputType('SandboxDisputeOpenInput')
export class SandboxDisputeOpenInput {
  @Field(() => ID) orderId!: string;
  @Field(() => MinorUnits, { nullable: true, description: 'Tax included; the whole payment when absent.' })
  amount?: bigint | null;
  @Field(() => String, { nullable: true, description: 'The card network’s reason; `fraudulent` when absent.' })
  reason?: string | null;
}
