import { COMPONENTS_PREFIX, type Schema } from './schemas.js';
import type { OpenAPIV3Document } from './v3.js';

/** The Swagger 2.0 document kube-apiserver serves at /openapi/v2: every group's paths and definitions in one. */
export interface SwaggerDocument {
  swagger: '2.0';
  info: { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
  definitions: Record<string, Schema>;
  security: Record<string, string[]>[];
  securityDefinitions: Record<string, unknown>;
}

const DEFINITIONS_PREFIX = '#/definitions/';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];
/** kube's order of `produces` (the v3 document keeps media types as sorted map keys). */
const PRODUCES_ORDER = [
  'application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf',
  'application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch', '*/*',
];

const sortedKeys = (obj: Record<string, unknown>) => Object.fromEntries(Object.keys(obj).sort().map((k) => [k, obj[k]]));
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * A v3 schema as Swagger 2.0 (JSON Schema draft 4 subset) has it, the way kube writes its v2 definitions:
 * `allOf: [{$ref}]` with siblings becomes `$ref` with siblings, refs point into `#/definitions/`, and the
 * one-of-types unions (IntOrString, Quantity) become `type: string`.
 */
export function toSwaggerSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toSwaggerSchema);
  if (!isObject(schema)) return schema;
  let out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === '$ref' && typeof v === 'string') out.$ref = v.startsWith(COMPONENTS_PREFIX) ? DEFINITIONS_PREFIX + v.slice(COMPONENTS_PREFIX.length) : v;
    else if (k === 'properties' && isObject(v)) out.properties = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, toSwaggerSchema(s)]));
    else if (k === 'oneOf' || k === 'anyOf') continue;
    else if (k.startsWith('x-') || k === 'enum' || k === 'default' || k === 'required' || k === 'example') out[k] = v;
    else out[k] = toSwaggerSchema(v);
  }
  const allOf = out.allOf as Record<string, unknown>[] | undefined;
  if (allOf?.length === 1 && Object.keys(allOf[0]).length === 1 && typeof allOf[0].$ref === 'string') {
    const { allOf: _, ...rest } = out;
    out = { ...rest, $ref: allOf[0].$ref };
  }
  const union = (schema.oneOf ?? schema.anyOf) as { type?: string }[] | undefined;
  if (Array.isArray(union) && out.type === undefined && out.$ref === undefined) {
    const types = union.map((u) => u.type);
    if (types.includes('string')) {
      out.type = 'string';
      if (types.includes('integer') && out.format === undefined) out.format = 'int-or-string';
    }
  }
  return sortedKeys(out);
}

function toSwaggerParameter(p: Record<string, unknown>): Record<string, unknown> {
  const { schema, ...rest } = p;
  return sortedKeys({ ...rest, ...(isObject(schema) ? schema : {}) });
}

function toSwaggerOperation(op: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const parameters: Record<string, unknown>[] = [];
  const produces = new Set<string>();
  for (const [k, v] of Object.entries(op)) {
    if (k === 'parameters') parameters.push(...(v as Record<string, unknown>[]).map(toSwaggerParameter));
    else if (k === 'requestBody' && isObject(v)) {
      const media = v.content as Record<string, { schema: unknown }>;
      out.consumes = Object.keys(media);
      const body: Record<string, unknown> = { in: 'body', name: 'body', schema: toSwaggerSchema(Object.values(media)[0].schema) };
      if (v.required) body.required = true;
      parameters.unshift(sortedKeys(body));
    } else if (k === 'responses' && isObject(v)) {
      out.responses = Object.fromEntries(Object.entries(v).map(([code, r]) => {
        const { content, description } = r as { content?: Record<string, { schema: unknown }>; description: string };
        if (!content) return [code, { description }];
        for (const t of Object.keys(content)) produces.add(t);
        return [code, { description, schema: toSwaggerSchema(Object.values(content)[0].schema) }];
      }));
    } else out[k] = v;
  }
  if (parameters.length) out.parameters = parameters;
  out.consumes ??= ['*/*'];
  out.produces = [...produces].sort((a, b) => PRODUCES_ORDER.indexOf(a) - PRODUCES_ORDER.indexOf(b));
  out.schemes = ['https'];
  return sortedKeys(out);
}

/** Merges group-version documents into kube's single Swagger 2.0 document. */
export function buildSwaggerDocument(documents: Iterable<OpenAPIV3Document>): SwaggerDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  const definitions: Record<string, Schema> = {};
  let info = { title: 'Kubernetes', version: 'unversioned' };
  for (const doc of documents) {
    info = doc.info;
    for (const [path, item] of Object.entries(doc.paths)) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(item)) {
        if (METHODS.includes(k)) out[k] = toSwaggerOperation(v as Record<string, unknown>);
        else if (k === 'parameters') out.parameters = (v as Record<string, unknown>[]).map(toSwaggerParameter);
      }
      paths[path] = sortedKeys(out);
    }
    for (const [name, schema] of Object.entries(doc.components.schemas)) definitions[name] ??= toSwaggerSchema(schema) as Schema;
  }
  return {
    definitions: sortedKeys(definitions) as Record<string, Schema>,
    info,
    paths: sortedKeys(paths) as SwaggerDocument['paths'],
    security: [{ BearerToken: [] }],
    securityDefinitions: { BearerToken: { description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' } },
    swagger: '2.0',
  };
}

/**
 * `own` with the paths and definitions of other servers' Swagger documents added (kube-aggregator's merged
 * /openapi/v2); on a clash of names the document already there wins. Values that are not objects are skipped.
 */
export function mergeSwaggerDocuments(own: SwaggerDocument, others: readonly object[]): SwaggerDocument {
  if (others.length === 0) return own;
  const paths = { ...own.paths };
  const definitions = { ...own.definitions };
  for (const doc of others) {
    const { paths: morePaths, definitions: moreDefinitions } = doc as { paths?: unknown; definitions?: unknown };
    // `__proto__` (a key JSON.parse keeps as data) would set the object's prototype rather than add an entry
    const fresh = (target: object, key: string) => key !== '__proto__' && !Object.hasOwn(target, key);
    if (isObject(morePaths)) for (const [path, item] of Object.entries(morePaths)) if (isObject(item) && fresh(paths, path)) paths[path] = item;
    if (isObject(moreDefinitions)) for (const [name, schema] of Object.entries(moreDefinitions)) if (isObject(schema) && fresh(definitions, name)) definitions[name] = schema as Schema;
  }
  return { ...own, paths: sortedKeys(paths) as SwaggerDocument['paths'], definitions: sortedKeys(definitions) as Record<string, Schema> };
}
