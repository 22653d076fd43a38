import type express from 'express';
import type { Request, Response } from 'express';
import { DomainError } from '../../../kit/errors.js';
import { verifyCsrf } from '../../web-kit/csrf.js';
import { html, type HtmlValue } from '../../web-kit/html.js';
import { csrfField } from '../../web-kit/layout.js';
import type { PortalApi } from './portal-api.js';
import { siteLink } from './portal-format.js';
import { FORM_EXPIRED, messageOf } from './portal-http.js';
import type { PortalContext } from './portal-views.js';

interface Helpers {
  page: (handler: (req: Request, res: Response) => Promise<void>) => express.RequestHandler;
  contextOf(req: Request, res: Response): PortalContext;
  show(ctx: PortalContext, title: string, body: HtmlValue, current: string | null, status?: number): Promise<void>;
  message(
    res: Response,
    organization: PortalContext['organization'],
    title: string,
    text: string,
    status: number,
  ): void;
  api: PortalApi;
  publicUrl: string;
}

const GET_INVOICE = 'customer_portal:orders:invoice';
const GENERATE_INVOICE = 'customer_portal:orders:generate_invoice';

/**
 * An order's invoice: `GET /portal/<slug>/orders/<id>/invoice` follows the API's signed link to the PDF;
 * before the invoice exists it offers a button, whose post generates it (the API's 202, which changes
 * nothing when the details did not change) and follows the link. A link on this site's own public URL
 * becomes a path, so the browser stays on the origin it is on.
 */
export function invoiceRoutes(portal: express.Router, h: Helpers): void {
  const linkOf = (url: unknown): string | null => siteLink(url, h.publicUrl);
  const invoiceLink = async (ctx: PortalContext, id: string) =>
    linkOf((await ctx.call(GET_INVOICE, { params: { id } }))?.url);

  portal.get(
    '/orders/:id/invoice',
    h.page(async (req, res) => {
      const ctx = h.contextOf(req, res);
      const id = String(req.params.id);
      if (!h.api.has(GET_INVOICE))
        return h.message(res, ctx.organization, 'Not found', 'Invoices are not available.', 404);
      try {
        const link = await invoiceLink(ctx, id);
        if (link) return res.redirect(303, link);
      } catch (error) {
        if (!(error instanceof DomainError) || error.code !== 'InvoiceDoesNotExist') throw error;
      }
      if (!h.api.has(GENERATE_INVOICE))
        return h.message(res, ctx.organization, 'Not ready', 'The invoice of this order is not ready yet.', 404);
      const body = html`<p><a href="${ctx.base}/orders">← Orders</a></p><h1>Invoice</h1><div class="card"><p>The invoice of this order has not been prepared yet.</p><form method="post" action="${ctx.base}/orders/${id}/invoice">${csrfField(ctx.csrfToken)}<button type="submit">Prepare and download the invoice</button></form></div>`;
      await h.show(ctx, 'Invoice', body, 'orders');
    }),
  );

  portal.post(
    '/orders/:id/invoice',
    h.page(async (req, res) => {
      const ctx = h.contextOf(req, res);
      const id = String(req.params.id);
      if (!verifyCsrf(req)) return h.message(res, ctx.organization, 'Not allowed', FORM_EXPIRED, 403);
      if (!h.api.has(GENERATE_INVOICE))
        return h.message(res, ctx.organization, 'Not found', 'Invoices are not available.', 404);
      try {
        await ctx.call(GENERATE_INVOICE, { params: { id } });
      } catch (error) {
        if (!(error instanceof DomainError) || error.status >= 500 || error.status === 401 || error.status === 404)
          throw error;
        return h.message(res, ctx.organization, 'No invoice yet', messageOf(error), 400);
      }
      const link = await invoiceLink(ctx, id);
      if (!link)
        return h.message(res, ctx.organization, 'Not ready', 'The invoice is not ready yet. Try again shortly.', 409);
      res.redirect(303, link);
    }),
  );
}
