/** The internal principal endpoint's contract now lives in kit (billing serves it too). */
export * from '../../../kit/http/internal-auth.js';
