import { coreApiRule } from '../../../kit/graphql/authorize.js';

/**
 * Who may read the sandbox's mail page (`GET /v1/sandbox/emails/`, emails/sandbox-mail.ts): customer
 * e-mails carry customer data, so it needs what reading customers needs.
 */
export const SANDBOX_EMAILS_READ = coreApiRule('customers:read', 'customers:write');
