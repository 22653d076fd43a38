import express from 'express';
import { CARD_FORM_SCRIPT, NEXT_ACTION_SCRIPT } from './card-entry.scripts.js';

/** Our scripts of the card pages, by the path the pages load them from. */
export const CARD_ASSETS = {
  cardForm: '/assets/card-form.js',
  nextAction: '/assets/next-action.js',
} as const;

const FILES: Record<string, string> = {
  'card-form.js': CARD_FORM_SCRIPT,
  'next-action.js': NEXT_ACTION_SCRIPT,
};

/**
 * GET /assets/<file>: the card pages' own scripts, served by this process (no CDN). They change only
 * with a deploy, so browsers may keep them an hour (the page itself is never cached).
 */
export function createCardAssetsRouter(): express.Router {
  const router = express.Router();
  router.get('/assets/:file', (req, res, next) => {
    const body = FILES[req.params.file as string];
    if (body === undefined) return next();
    res.set({
      'Cache-Control': 'public, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    });
    res.type('text/javascript').send(body);
  });
  return router;
}
