import { coreApiRule } from '../../../kit/graphql/authorize.js';

/**
 * Who may call the usage event operations of the Core API (`rest-adapter/v1/routes/events.routes.ts` and
 * `event-types.routes.ts`), as Polar: the event types share the events' scopes.
 */
export const EVENTS_READ = coreApiRule('events:read', 'events:write');
export const EVENTS_WRITE = coreApiRule('events:write');
