/**
 * The partner client's types (examples/partner-client/content-api.d.ts), generated from the
 * OpenAPI document by openapi-typescript. Written by `npm run api:types`; the file is checked
 * against the live document by test/partner-client.test.ts.
 */
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';

export const API_TYPES_FILE = 'examples/partner-client/content-api.d.ts';

/** The generated module's text for a document. */
export async function apiTypes(document: object): Promise<string> {
  return COMMENT_HEADER + astToString(await openapiTS(document as OpenAPI3, { silent: true }));
}
