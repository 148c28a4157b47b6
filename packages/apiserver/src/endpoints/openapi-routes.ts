import { parseMediaTypes } from './negotiate.js';
import { Hono, type Context } from 'hono';
import { newPathNotFound, type GroupDefinition } from '@kapi/apimachinery';
import {
  CONTENT_TYPE_JSON,
  CONTENT_TYPE_V2_PROTOBUF,
  CONTENT_TYPE_V2_PROTOBUF_ALT,
  createOpenAPIService,
  type EncodedDocument,
  type OpenAPIOptions,
} from '../openapi/index.js';
import type { ExternalOpenAPI } from '../host.js';

const ONE_YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/** Media ranges of an Accept header, highest quality first (ties keep the client's order). */
function mediaRanges(accept: string | undefined): string[] {
  if (!accept?.trim()) return ['*/*'];
  return parseMediaTypes(accept).map((r) => `${r.type}/${r.subtype}`);
}

function notAcceptable(c: Context, accepted: string[]): Response {
  return c.json({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `only the following media types are accepted: ${accepted.join(', ')}`,
    reason: 'NotAcceptable',
    details: {},
    code: 406,
  }, 406);
}

/**
 * Writes a document as kube-openapi's handlers do: a quoted ETag, 304 for a matching If-None-Match, and with
 * `?hash=` either an immutable response (the hash is current) or a 301 to the current hash.
 */
function send(c: Context, doc: EncodedDocument, contentType: string, redirect?: (etag: string) => string): Response {
  const headers: Record<string, string> = { 'Content-Type': contentType, ETag: `"${doc.etag}"`, Vary: 'Accept' };
  const hash = c.req.query('hash');
  if (hash !== undefined && redirect) {
    if (hash !== doc.etag) return c.redirect(redirect(doc.etag), 301);
    headers['Cache-Control'] = 'public, immutable';
    headers.Expires = new Date(Date.now() + ONE_YEAR_MS).toUTCString();
  }
  const ifNoneMatch = c.req.header('If-None-Match');
  if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === headers.ETag)) {
    return c.body(null, 304, headers);
  }
  return c.body(doc.body as Uint8Array<ArrayBuffer>, 200, headers);
}

/**
 * GET /openapi/v3, /openapi/v3/<group-version> and /openapi/v2 for the groups `getGroups()` returns (read on
 * every request, so installing a group shows up; documents are rebuilt only when the list changes) and the
 * documents of group versions other servers serve (`getExternal()`).
 */
export function createOpenAPIRoutes(
  getGroups: () => GroupDefinition[],
  options: OpenAPIOptions = {},
  getExternal: () => ExternalOpenAPI | undefined = () => undefined,
): Hono {
  const service = createOpenAPIService(getGroups, options, getExternal);
  const app = new Hono();

  const v3Accepts = (c: Context) => mediaRanges(c.req.header('Accept')).some((r) => r === '*/*' || r === 'application/*' || r === CONTENT_TYPE_JSON);

  app.get('/openapi/v3', (c) => {
    if (!v3Accepts(c)) return notAcceptable(c, [CONTENT_TYPE_JSON]);
    return send(c, service.v3Index(), CONTENT_TYPE_JSON);
  });

  app.get('/openapi/v3/*', (c) => {
    const path = safeDecode(c.req.path.slice('/openapi/v3/'.length)).replace(/\/+$/, '');
    const doc = path ? service.v3(path) : service.v3Index();
    if (!doc) return c.json(newPathNotFound().status, 404);
    if (!v3Accepts(c)) return notAcceptable(c, [CONTENT_TYPE_JSON]);
    return send(c, doc, CONTENT_TYPE_JSON, path ? (etag) => `/openapi/v3/${path}?hash=${etag}` : undefined);
  });

  app.get('/openapi/v2', (c) => {
    for (const range of mediaRanges(c.req.header('Accept'))) {
      if (range === CONTENT_TYPE_V2_PROTOBUF || range === CONTENT_TYPE_V2_PROTOBUF_ALT) {
        // kube answers both with the `.v1.0` spelling: Go's mime parser (client-go) rejects the `@` in the other.
        return send(c, service.v2Protobuf(), CONTENT_TYPE_V2_PROTOBUF_ALT);
      }
      if (range === CONTENT_TYPE_JSON || range === 'application/*' || range === '*/*') {
        return send(c, service.v2Json(), CONTENT_TYPE_JSON);
      }
    }
    return notAcceptable(c, [CONTENT_TYPE_JSON, CONTENT_TYPE_V2_PROTOBUF]);
  });

  return app;
}

/** A path with a malformed escape (`%zz`) names no document: it is looked up as it is, and not found. */
function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
