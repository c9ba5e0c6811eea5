/** Types of verify-signature.mjs, for the tests that import the documented verifier. */
export function verifyCatalogWebhook(rawBody: string | Uint8Array, signatureHeader: string | string[] | undefined, secrets: string | string[], nowSeconds?: number): any;
