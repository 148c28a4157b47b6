// OpenAPI v2 and v3 documents built from the installed groups' generated schemas (pure; hono-free).
export { buildOpenAPIV3Documents, groupVersionPath, toValidOperationID, DEFAULT_INFO_VERSION } from './v3.js';
export type { OpenAPIOptions, OpenAPIV3Document } from './v3.js';
export { buildSwaggerDocument, toSwaggerSchema, type SwaggerDocument } from './v2.js';
export { encodeSwaggerProtobuf } from './proto.js';
export { schemaPool, openAPIName, refNames, COMPONENTS_PREFIX, type Schema, type SchemaPool, type GroupVersionKind } from './schemas.js';
export {
  createOpenAPIService,
  CONTENT_TYPE_JSON,
  CONTENT_TYPE_V2_PROTOBUF,
  CONTENT_TYPE_V2_PROTOBUF_ALT,
  type EncodedDocument,
  type OpenAPIService,
} from './service.js';
