/**
 * Where the API's documentation lives, in a module of its own: the front door routes by it and
 * the build (vite.config.ts) names the reference's bundle by it, neither loading the page itself.
 */

/** The API reference page (server/api-docs/api-docs-page.ts). */
export const API_DOCS_PATH = '/api/docs';

/** The OpenAPI document (server/api-docs/openapi.ts). */
export const OPENAPI_PATH = '/api/openapi.json';

/**
 * The reference's standalone bundle in @scalar/api-reference: its key in the build's manifest,
 * and without a build the address Vite's development server serves it at.
 */
export const API_REFERENCE_SOURCE = 'node_modules/@scalar/api-reference/dist/browser/standalone.js';
