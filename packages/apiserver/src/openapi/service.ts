import { createHash } from 'node:crypto';
import type { GroupDefinition } from '@kapi/apimachinery';
import type { ExternalOpenAPI } from '../host.js';
import { encodeSwaggerProtobuf } from './proto.js';
import { buildSwaggerDocument, mergeSwaggerDocuments } from './v2.js';
import { buildOpenAPIV3Documents, type OpenAPIOptions, type OpenAPIV3Document } from './v3.js';

/** A document as served: its bytes, encoded once, and their hash (kube's ETag). */
export interface EncodedDocument {
  body: Uint8Array;
  contentType: string;
  /** Upper-case hex SHA-512 of `body`, as kube computes ETags and `?hash=` values. */
  etag: string;
}

export const CONTENT_TYPE_JSON = 'application/json';
/** The protobuf media types of /openapi/v2: kubectl asks for the first, kube answers with the second. */
export const CONTENT_TYPE_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
export const CONTENT_TYPE_V2_PROTOBUF_ALT = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/** The OpenAPI documents of a set of groups, built on first use and rebuilt only when the groups change. */
export interface OpenAPIService {
  /** `/openapi/v3`: `{paths: {"apis/apps/v1": {serverRelativeURL: "/openapi/v3/apis/apps/v1?hash=..."}}}`. */
  v3Index(): EncodedDocument;
  /** `/openapi/v3/<path>` (`api/v1`, `apis/apps/v1`, `apis`, ...), or undefined when no such document exists. */
  v3(path: string): EncodedDocument | undefined;
  /** `/openapi/v2` as JSON. */
  v2Json(): EncodedDocument;
  /** `/openapi/v2` as gnostic's `openapi.v2.Document` Protobuf message. */
  v2Protobuf(): EncodedDocument;
}

const etagOf = (body: Uint8Array) => createHash('sha512').update(body).digest('hex').toUpperCase();
const encoded = (body: Uint8Array, contentType: string): EncodedDocument => ({ body, contentType, etag: etagOf(body) });
const json = (value: unknown) => encoded(new TextEncoder().encode(JSON.stringify(value)), CONTENT_TYPE_JSON);

interface Built {
  groups: readonly GroupDefinition[];
  external: ExternalOpenAPI | undefined;
  /** The server's own documents, those other servers serve in their place left out. */
  documents: Map<string, OpenAPIV3Document>;
  v3: Map<string, EncodedDocument>;
  index: EncodedDocument;
  /** Built on the first /openapi/v2 request: most clients only read v3. */
  v2?: { json: EncodedDocument; protobuf: EncodedDocument };
}

/**
 * Serves the documents of `getGroups()`, and those other servers serve (`getExternal()`: a v3 document takes the
 * place of the server's own of the same path; v2 documents are merged). Building is deterministic, so equal groups
 * always give equal bytes and hashes; a document is serialized and hashed once however often it is read (encode once).
 */
export function createOpenAPIService(
  getGroups: () => readonly GroupDefinition[],
  options: OpenAPIOptions = {},
  getExternal: () => ExternalOpenAPI | undefined = () => undefined,
): OpenAPIService {
  let built: Built | undefined;

  const current = (): Built => {
    const groups = getGroups();
    const external = getExternal();
    if (built && built.external === external && built.groups.length === groups.length && built.groups.every((g, i) => g === groups[i])) return built;
    const documents = buildOpenAPIV3Documents(groups, options);
    const v3 = new Map<string, EncodedDocument>();
    for (const path of external?.v3.keys() ?? []) documents.delete(path);
    for (const [path, doc] of documents) v3.set(path, json(doc));
    for (const [path, doc] of external?.v3 ?? []) v3.set(path, json(doc));
    const paths = Object.fromEntries(
      [...v3.keys()].sort().map((path) => [path, { serverRelativeURL: `/openapi/v3/${path}?hash=${v3.get(path)!.etag}` }]),
    );
    built = { groups: [...groups], external, documents, v3, index: json({ paths }) };
    return built;
  };

  const v2 = () => {
    const b = current();
    if (!b.v2) {
      const swagger = mergeSwaggerDocuments(buildSwaggerDocument(b.documents.values()), b.external?.v2 ?? []);
      b.v2 = { json: json(swagger), protobuf: encoded(encodeSwaggerProtobuf(swagger), CONTENT_TYPE_V2_PROTOBUF_ALT) };
    }
    return b.v2;
  };

  return {
    v3Index: () => current().index,
    v3: (path) => current().v3.get(path),
    v2Json: () => v2().json,
    v2Protobuf: () => v2().protobuf,
  };
}
