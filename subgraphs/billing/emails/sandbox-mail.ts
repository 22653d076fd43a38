import { Arg, Ctx, Field, GraphQLISODateTime, ID, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { ResourceNotFound } from '../../../kit/errors.js';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { clockOrganization } from '../time/sandbox-clock.service.js';
import { OutgoingEmailRepository } from './outgoing-email.repository.js';

import { SANDBOX_EMAILS_READ } from './sandbox-mail.access.js';

/**
 * The sandbox's mail page (docs/email.md#sandbox): an organization's recent outgoing e-mail, delivered
 * or not, so a merchant can rehearse without an SMTP server.
 */
const MOST = 100;

@ObjectType('SandboxEmail', { simpleResolvers: true })
export class SandboxEmailType {
  @Field(() => ID) id!: string;
  @Field() kind!: string;
  @Field() to!: string;
  @Field(() => String, { nullable: true }) fromName!: string | null;
  @Field() subject!: string;
  @Field() text!: string;
  @Field(() => String, { nullable: true }) html!: string | null;
  @Field({ description: 'pending | sent | failed | not_delivered' }) status!: string;
  @Field(() => String, { nullable: true, description: 'Why it was not delivered, or the last SMTP error.' })
  reason!: string | null;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) sentAt!: Date | null;
}

@Resolver(() => SandboxEmailType)
export class SandboxMailResolver {
  @Query(() => [SandboxEmailType], {
    description: "An organization's most recent outgoing e-mails, newest first (sandbox only; 404 in production).",
  })
  async sandboxEmails(
    @Ctx() ctx: BillingContext,
    @Arg('organizationId', () => ID, { nullable: true }) organizationId?: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit?: number | null,
  ): Promise<SandboxEmailType[]> {
    authorize(ctx.principal, SANDBOX_EMAILS_READ);
    if (ctx.services.sandboxClock.environment !== 'sandbox')
      throw new ResourceNotFound('The mail page exists in the sandbox only.');
    const organization = clockOrganization(ctx.principal, organizationId, 'query');
    const rows = await new OutgoingEmailRepository(ctx.em).recentOf(
      organization,
      Math.min(Math.max(limit ?? 50, 1), MOST),
    );
    return rows.map(r => ({
      id: r.id,
      kind: r.kind,
      to: r.to_address,
      fromName: r.from_name,
      subject: r.subject,
      text: r.text_body,
      html: r.html_body,
      status: r.status,
      reason: r.status_reason ?? r.last_error,
      createdAt: new Date(r.created_at),
      sentAt: r.sent_at ? new Date(r.sent_at) : null,
    }));
  }
}
