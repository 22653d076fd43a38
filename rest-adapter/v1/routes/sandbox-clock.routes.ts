import { z } from 'zod';
import { toWire } from './common.js';
import type { Route } from './route.js';
import { MAX_ADVANCE_SECONDS, SANDBOX_CLOCK_ADVANCE, SANDBOX_CLOCK_READ } from '../../../subgraphs/billing/contract.js';

const dateTime = z.iso.datetime({ offset: true });

export const sandboxClockResponse = z.object({ organization_id: z.uuid(), now: dateTime });

/** `{"to": "<ISO datetime>"}` or `{"seconds": N}`, exactly one, and `organization_id` for a user's token. */
export const sandboxClockAdvanceBody = z
  .strictObject({
    to: dateTime.optional().meta({
      description: `The instant to move to: not before the clock's time, at most ${MAX_ADVANCE_SECONDS} seconds (732 days) after it.`,
    }),
    seconds: z
      .number()
      .int()
      .gte(0)
      .lte(MAX_ADVANCE_SECONDS)
      .optional()
      .meta({ description: `How far to move, at most ${MAX_ADVANCE_SECONDS} seconds (two years of 366 days).` }),
    organization_id: z.uuid().nullish(),
  })
  .superRefine((body, ctx) => {
    if ((body.to === undefined) === (body.seconds === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'Give exactly one of `to` and `seconds`.' });
    }
  });

const CLOCK_DESCRIPTION =
  "Sandbox only (production answers 404). Each organization's billing lives on its own clock: a new " +
  "organization's clock reads the wall clock; once moved it runs ahead of it by the distance moved. " +
  'Renewals, trial ends, cancellations and pauses at period end, resumes, dunning retries and checkout ' +
  'expiry are stamped with this clock.';

/**
 * The sandbox clock (docs/recurring.md). These
 * routes exist only in the sandbox's route table (`sandboxOnly`), so production answers them as any
 * unknown path: 404 `{"detail":"Not Found"}`.
 */
export const sandboxClockRoutes: Route[] = [
  {
    operationId: 'sandbox:clock_get',
    method: 'get',
    path: '/v1/sandbox/clock',
    summary: "Read an organization's sandbox clock",
    description: `${CLOCK_DESCRIPTION} A user's token names the organization with \`organization_id\`.`,
    tag: 'sandbox',
    sandboxOnly: true,
    access: SANDBOX_CLOCK_READ,
    query: z.object({ organization_id: z.uuid().optional() }),
    operation: 'SandboxClockGet',
    variables: ({ query }) => ({ organizationId: query.organization_id ?? null }),
    result: data => toWire(data.sandboxClock),
    status: 200,
    response: sandboxClockResponse,
    errors: [404],
  },
  {
    operationId: 'sandbox:clock_advance',
    method: 'post',
    path: '/v1/sandbox/clock/advance',
    summary: "Move an organization's sandbox clock forward",
    description:
      `${CLOCK_DESCRIPTION} Moves the clock to \`to\` or by \`seconds\`, never backwards (422), and answers ` +
      'once every billing action due up to then has run, boundary by boundary in order, each stamped with ' +
      'its own instant. One advance moves at most ' +
      `${MAX_ADVANCE_SECONDS} seconds (732 days: \`seconds\` or the distance of \`to\` from the clock's time; ` +
      'further is 422). Advances of one organization run one after the other: one sent while another runs ' +
      'waits for it, and answers 409 `SandboxClockBusy` if that one has not ended within a few seconds. ' +
      'Example, living through a year of renewals: a monthly subscription bought on ' +
      '31 January 2028 at 09:30 UTC (`current_period_end` 2028-02-29T09:30:00Z), then ' +
      '`{"to": "2029-01-31T09:30:00Z"}` (or `{"seconds": 31622400}`). When the answer comes, ' +
      '`GET /v1/orders/?subscription_id=…` lists twelve paid `subscription_cycle` orders created on ' +
      '29 February, 31 March, 30 April, 31 May, 30 June, 31 July, 31 August, 30 September, 31 October, ' +
      '30 November, 31 December and 31 January (the last day of shorter months, back on the 31st after), ' +
      'each with its payment in `/v1/payments/`; the subscription reads `current_period_start` ' +
      '2029-01-31T09:30:00Z and `current_period_end` 2029-02-28T09:30:00Z; and the webhooks ' +
      '`subscription.updated`, `subscription.cycled`, `order.created`, `order.updated`, `order.paid` of ' +
      'each renewal carry its own instant as `timestamp`. A card that declines makes the subscription ' +
      '`past_due` and the order wait with `next_payment_attempt_at`; further advances run the retries ' +
      '(after 2, 5, 7 and 7 days) up to the revocation.',
    tag: 'sandbox',
    sandboxOnly: true,
    access: SANDBOX_CLOCK_ADVANCE,
    body: sandboxClockAdvanceBody,
    operation: 'SandboxClockAdvance',
    variables: ({ body }) => {
      const b = body as z.output<typeof sandboxClockAdvanceBody>;
      return {
        input: { organizationId: b.organization_id ?? null, to: b.to ?? null, seconds: b.seconds ?? null },
      };
    },
    result: data => toWire(data.advanceSandboxClock),
    status: 200,
    response: sandboxClockResponse,
    errors: [404, 409],
  },
];
