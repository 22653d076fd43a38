import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { BadRequest } from '../../kit/errors.js';
import { sendError } from '../v1/wire-errors.js';

/**
 * Reads the body as bytes (`req.body`, a Buffer) for the routes that need exactly what was sent: a
 * signature over the raw body (GitHub's, Stripe's) or a file part. The parser's own failures answer
 * here in the documented shapes, a 413 past `limit` or a 400 for a body it cannot decode (a broken
 * Content-Encoding, an aborted upload), since inside a route the app's error handler would take them
 * for a bug.
 */
export function readRawBody(limit: number | string): RequestHandler {
  const raw = express.raw({ type: () => true, limit });
  return (req: Request, res: Response, next: NextFunction) =>
    raw(req, res, (error?: unknown) => {
      if (!error) next();
      else if ((error as { type?: string }).type === 'entity.too.large')
        res.status(413).json({ detail: 'Request Entity Too Large' });
      else sendError(res, new BadRequest('The body could not be read.'));
    });
}
