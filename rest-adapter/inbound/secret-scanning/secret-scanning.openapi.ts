import { type Json, jsonContent, polarVersionRef, refs, schemaRef } from '../../v1/openapi/wire-schemas.js';
import { SECRET_SCANNING_PATH, SECRET_SCANNING_TOKEN_TYPES } from './router.js';

/** The GitHub secret-scanning endpoint (router.ts), which has no route table entry. */

export const secretScanningSchemas: Record<string, Json> = {
  GitHubSecretScanningToken: {
    type: 'object',
    required: ['token', 'type', 'source'],
    properties: {
      token: { type: 'string', description: 'The leaked token, as found' },
      type: {
        type: 'string',
        description: `The kind GitHub matched (case-insensitive): ${SECRET_SCANNING_TOKEN_TYPES.join(', ')}`,
      },
      url: { type: ['string', 'null'], description: 'Where GitHub found it' },
      source: { type: 'string', description: 'e.g. `content`, `commit`, `pull_request_comment`' },
    },
  },
  GitHubSecretScanningTokenResult: {
    type: 'object',
    required: ['token_raw', 'token_type', 'label'],
    properties: {
      token_raw: { type: 'string' },
      token_type: { type: 'string', enum: [...SECRET_SCANNING_TOKEN_TYPES] },
      label: {
        type: 'string',
        enum: ['true_positive', 'false_positive'],
        description: '`true_positive`: the token was live and is now revoked; otherwise `false_positive`',
      },
    },
  },
};

const header = (name: string, description: string): Json => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
});

export const secretScanningPaths: Record<string, Json> = {
  [SECRET_SCANNING_PATH]: {
    post: {
      operationId: 'integrations_github:secret_scanning',
      summary: 'Revoke leaked tokens reported by GitHub secret scanning',
      description:
        "GitHub's secret-scanning partner endpoint. No bearer: the request is authenticated by GitHub's ECDSA " +
        'P-256 / SHA-256 signature over the raw body, checked with the public keys configured in ' +
        "`GITHUB_SECRET_SCANNING_KEYS` / `GITHUB_SECRET_SCANNING_KEYS_FILE` (GitHub's `/meta/public_keys/secret_scanning` " +
        'document). Each token is looked up in every credential family; a live one is revoked at once in every ' +
        "process, and its owner is e-mailed (the token's name and prefix, never the token, and where GitHub found " +
        'it): the user of a personal access token, web session or OAuth user token; the owners and admins of the ' +
        'organization of an organization access token, an OAuth organization token or a customer session token. ' +
        'Answers one result per token, in request order. The per-address rate ' +
        'limit applies.',
      tags: ['integrations'],
      security: [],
      parameters: [
        header('Github-Public-Key-Identifier', "Which of GitHub's keys signed the body"),
        header('Github-Public-Key-Signature', 'Base64 of the DER ECDSA signature of the raw body'),
        polarVersionRef,
      ],
      requestBody: {
        required: true,
        content: jsonContent({ type: 'array', items: schemaRef('GitHubSecretScanningToken') }),
      },
      responses: {
        200: {
          description: 'One label per reported token',
          content: jsonContent({ type: 'array', items: schemaRef('GitHubSecretScanningTokenResult') }),
        },
        ...refs([
          [400, 'BadRequest'],
          [403, 'Forbidden'],
          [404, 'UnsupportedVersion'],
          [413, 'PayloadTooLarge'],
          [422, 'ValidationError'],
        ]),
        503: {
          description:
            'No GitHub public key is configured (`SecretScanningNotConfigured`), for a request with both signature headers (without them: 422)',
          content: jsonContent(schemaRef('Error')),
        },
      },
    },
  },
};
