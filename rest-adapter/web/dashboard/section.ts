/**
 * What a section of the dashboard is written with, in one import: the `html` tag, the CSRF field and error box,
 * the request's context and its helpers (dashboard-context.ts), the frame (dashboard-frame.ts), and the two
 * shapes every section shares: a wire body as the API answers it, and a form's refusal to show again.
 */
export { html, type HtmlValue, rawHtml } from '../../web-kit/html.js';
export { csrfField, errorBox } from '../../web-kit/layout.js';
export {
  type DashboardContext,
  type DashboardRoute,
  deleteOfThisOrganization,
  formField,
  formValues,
  ofThisOrganization,
  redirectTo,
  whenRefused,
} from './dashboard-context.js';
export { heading, pageNumber, pager, sendDashboard } from './dashboard-frame.js';

/** A body of the API as it answers it (Polar's wire shape). */
export type Wire = Record<string, any>;

/** A form shown again after a refusal: the words of its error box and the page's status. */
export interface FormState {
  error?: string;
  status?: number;
}
