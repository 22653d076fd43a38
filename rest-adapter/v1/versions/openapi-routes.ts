import express from 'express';
import { type StaticBody, staticBody } from '../../web-kit/compressed.js';
import { REVALIDATE } from '../openapi/docs-page.js';
import { sendNotFound } from '../wire-errors.js';
import { API_VERSIONS, type ApiVersion, DEFAULT_API_VERSION, isApiVersion } from './api-versions.js';
import { openApiForVersion } from './versioned-openapi.js';

/**
 * `GET /openapi.json` (the default version's document, which tools and tests read) and
 * `GET /<version>/openapi.json` for each version (docs/api-versions.md#openapi-documents). Each body is
 * built on first use from `openapi()`, the newest shape, then sent compressed with an ETag
 * (docs/performance.md#the-docs-page).
 */
export function versionedOpenApiRouter(openapi: () => Record<string, any>): express.Router {
  const router = express.Router();
  const bodies = new Map<ApiVersion, StaticBody>(
    API_VERSIONS.map(version => [
      version,
      staticBody(() => JSON.stringify(openApiForVersion(openapi(), version)), {
        type: 'application/json',
        cacheControl: REVALIDATE,
      }),
    ]),
  );
  router.get('/openapi.json', (req, res, next) => void bodies.get(DEFAULT_API_VERSION)!.send(req, res).catch(next));
  router.get('/:version/openapi.json', (req, res, next) => {
    const version = req.params.version;
    // Answered here: no other route ends in /openapi.json.
    if (!isApiVersion(version)) return sendNotFound(res);
    bodies.get(version)!.send(req, res).catch(next);
  });
  return router;
}
