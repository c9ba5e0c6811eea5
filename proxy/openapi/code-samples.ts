/**
 * A curl sample on every operation of the document (`x-codeSamples`, which Redoc shows beside the
 * operation on GET /docs): the captured example request when there is one (so it names ids that
 * exist in the example catalog), else the path with its `{parameters}` to fill in; the credential
 * the operation takes, from environment variables the reader sets; the JSON body of the request
 * body's example. Documentation only: nothing runs these.
 */
import type { OpenApiExamples } from './examples.js';
import type { Schema } from './schema-kit.js';

const KEY_HEADER = '-H "Authorization: Bearer $CATALOG_KEY"';
const INTERNAL_HEADER = '-H "X-Service-Internal-Key: $CATALOG_INTERNAL_KEY"';

function credential(security: Schema[] | undefined): string | null {
  const schemes = (security ?? []).flatMap((s) => Object.keys(s));
  // A public operation ([] or one empty requirement) needs none, even if it also takes a key.
  if (security === undefined || security.length === 0 || security.some((s) => Object.keys(s).length === 0)) return null;
  if (schemes.includes('apiKey')) return KEY_HEADER;
  if (schemes.includes('internalKey')) return INTERNAL_HEADER;
  return null;
}

export function curlSample(method: string, path: string, op: Schema, examples: OpenApiExamples): string {
  const captured = examples.operations[op.operationId as string]?.request;
  const target = captured?.startsWith(`${method.toUpperCase()} `) ? captured.slice(method.length + 1) : path;
  const parts = [method === 'get' ? 'curl --compressed' : `curl --compressed -X ${method.toUpperCase()}`];
  const auth = credential(op.security as Schema[] | undefined);
  if (auth !== null) parts.push(auth);
  const content = (op.requestBody as { content?: Record<string, { example?: unknown }> } | undefined)?.content;
  const body = content?.['application/json']?.example;
  if (body !== undefined) parts.push(`-H 'Content-Type: application/json' -d '${JSON.stringify(body)}'`);
  parts.push(`"$CATALOG_URL${target}"`);
  // One option a line, so the sample reads without scrolling sideways.
  return parts.join(' \\\n  ');
}

/** Adds `x-codeSamples` (one curl sample) to every operation of `paths`, in place. */
export function addCurlSamples(paths: Record<string, Record<string, Schema>>, examples: OpenApiExamples): void {
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      op['x-codeSamples'] = [{ lang: 'Shell', label: 'curl', source: curlSample(method, path, op, examples) }];
    }
  }
}
