import type { SwaggerDocument } from './v2.js';

/**
 * The Swagger 2.0 document as the Protobuf message `openapi.v2.Document` (github.com/google/gnostic), the form
 * kubectl asks /openapi/v2 for (`Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`) and reads
 * for client-side validation and `--output plaintext-openapiv2`. Values of `default`, `enum`, `example` and
 * `x-*` extensions travel as `Any.yaml`; JSON text is YAML, which is how clients decode them.
 */
export function encodeSwaggerProtobuf(doc: SwaggerDocument): Uint8Array {
  return document(doc).finish();
}

type Json = Record<string, unknown>;
const utf8 = new TextEncoder();
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** A minimal Protobuf writer: proto3 scalars are skipped when they hold their default value. */
class Message {
  private readonly chunks: Uint8Array[] = [];
  private size = 0;

  private push(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.size += bytes.length;
  }

  private varint(value: number): void {
    const bytes: number[] = [];
    let v = value;
    while (v > 0x7f) {
      bytes.push((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    bytes.push(v);
    this.push(Uint8Array.from(bytes));
  }

  private tag(field: number, wire: number): void {
    this.varint(field * 8 + wire);
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, 2);
    this.varint(value.length);
    this.push(value);
    return this;
  }

  string(field: number, value: unknown): this {
    if (typeof value === 'string' && value !== '') this.bytes(field, utf8.encode(value));
    return this;
  }

  strings(field: number, values: unknown): this {
    if (Array.isArray(values)) for (const v of values) if (typeof v === 'string') this.bytes(field, utf8.encode(v));
    return this;
  }

  bool(field: number, value: unknown): this {
    if (value === true) this.boolean(field, true);
    return this;
  }

  /** A bool written even when false (a member of a oneof, where presence matters). */
  boolean(field: number, value: boolean): this {
    this.tag(field, 0);
    this.varint(value ? 1 : 0);
    return this;
  }

  int64(field: number, value: unknown): this {
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) {
      this.tag(field, 0);
      this.varint(value);
    }
    return this;
  }

  double(field: number, value: unknown): this {
    if (typeof value === 'number' && value !== 0) {
      this.tag(field, 1);
      const buf = new Uint8Array(8);
      new DataView(buf.buffer).setFloat64(0, value, true);
      this.push(buf);
    }
    return this;
  }

  message(field: number, value: Message | undefined): this {
    if (value) this.bytes(field, value.finish());
    return this;
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }
}

/** `Any { string yaml = 2; }` */
const any = (value: unknown) => new Message().string(2, `${JSON.stringify(value)}\n`);

/** `repeated NamedAny vendor_extension` entries for the `x-*` keys of an object. */
function extensions(m: Message, field: number, obj: Json): Message {
  for (const [k, v] of Object.entries(obj)) {
    if (k.startsWith('x-')) m.message(field, new Message().string(1, k).message(2, any(v)));
  }
  return m;
}

function schema(s: Json): Message {
  const m = new Message()
    .string(1, s.$ref)
    .string(2, s.format)
    .string(3, s.title)
    .string(4, s.description);
  if (s.default !== undefined) m.message(5, any(s.default));
  m.double(6, s.multipleOf).double(7, s.maximum).bool(8, s.exclusiveMaximum).double(9, s.minimum).bool(10, s.exclusiveMinimum)
    .int64(11, s.maxLength).int64(12, s.minLength).string(13, s.pattern).int64(14, s.maxItems).int64(15, s.minItems)
    .bool(16, s.uniqueItems).int64(17, s.maxProperties).int64(18, s.minProperties).strings(19, s.required);
  if (Array.isArray(s.enum)) for (const v of s.enum) m.message(20, any(v));
  if (isObject(s.additionalProperties)) m.message(21, new Message().message(1, schema(s.additionalProperties)));
  else if (typeof s.additionalProperties === 'boolean') m.message(21, new Message().boolean(2, s.additionalProperties));
  if (typeof s.type === 'string') m.message(22, new Message().string(1, s.type));
  if (isObject(s.items)) m.message(23, new Message().message(1, schema(s.items)));
  if (Array.isArray(s.allOf)) for (const sub of s.allOf) if (isObject(sub)) m.message(24, schema(sub));
  if (isObject(s.properties)) {
    const props = new Message();
    for (const [name, sub] of Object.entries(s.properties)) {
      if (isObject(sub)) props.message(1, new Message().string(1, name).message(2, schema(sub)));
    }
    m.message(25, props);
  }
  m.bool(27, s.readOnly);
  if (s.example !== undefined) m.message(30, any(s.example));
  return extensions(m, 31, s);
}

/** `ParametersItem { Parameter parameter = 1; }` for a body, query or path parameter. */
function parameter(p: Json): Message {
  let param: Message;
  if (p.in === 'body') {
    const body = new Message().string(1, p.description).string(2, p.name).string(3, p.in).bool(4, p.required);
    if (isObject(p.schema)) body.message(5, schema(p.schema));
    param = new Message().message(1, extensions(body, 6, p));
  } else {
    // Query and path sub-schemas share their first fields; they differ from `type` on.
    const isPath = p.in === 'path';
    const sub = new Message().bool(1, p.required).string(2, p.in).string(3, p.description).string(4, p.name);
    if (isPath) sub.string(5, p.type).string(6, p.format).bool(19, p.uniqueItems);
    else sub.string(6, p.type).string(7, p.format).bool(20, p.uniqueItems);
    extensions(sub, isPath ? 22 : 23, p);
    param = new Message().message(2, new Message().message(isPath ? 4 : 3, sub));
  }
  return new Message().message(1, param);
}

function operation(op: Json): Message {
  const m = new Message().strings(1, op.tags).string(3, op.description).string(5, op.operationId)
    .strings(6, op.produces).strings(7, op.consumes);
  for (const p of (op.parameters as Json[] | undefined) ?? []) m.message(8, parameter(p));
  const responses = new Message();
  for (const [code, r] of Object.entries((op.responses as Record<string, Json> | undefined) ?? {})) {
    const response = new Message().string(1, r.description);
    if (isObject(r.schema)) response.message(2, new Message().message(1, schema(r.schema)));
    responses.message(1, new Message().string(1, code).message(2, new Message().message(1, response)));
  }
  m.message(9, responses).strings(10, op.schemes);
  return extensions(m, 13, op);
}

const PATH_ITEM_FIELDS: Record<string, number> = { get: 2, put: 3, post: 4, delete: 5, options: 6, head: 7, patch: 8 };

function document(doc: SwaggerDocument): Message {
  const paths = new Message();
  for (const [path, item] of Object.entries(doc.paths)) {
    const m = new Message();
    for (const [method, field] of Object.entries(PATH_ITEM_FIELDS)) {
      if (isObject(item[method])) m.message(field, operation(item[method] as Json));
    }
    for (const p of (item.parameters as Json[] | undefined) ?? []) m.message(9, parameter(p));
    paths.message(2, new Message().string(1, path).message(2, m));
  }
  const definitions = new Message();
  for (const [name, s] of Object.entries(doc.definitions)) definitions.message(1, new Message().string(1, name).message(2, schema(s)));
  const security = doc.security.map((requirement) => {
    const m = new Message();
    for (const [name, scopes] of Object.entries(requirement)) m.message(1, new Message().string(1, name).message(2, new Message().strings(1, scopes)));
    return m;
  });
  const securityDefinitions = new Message();
  for (const [name, def] of Object.entries(doc.securityDefinitions)) {
    const d = def as Json;
    const apiKey = new Message().string(1, d.type).string(2, d.name).string(3, d.in).string(4, d.description);
    securityDefinitions.message(1, new Message().string(1, name).message(2, new Message().message(2, apiKey)));
  }
  const out = new Message()
    .string(1, doc.swagger)
    .message(2, new Message().string(1, doc.info.title).string(2, doc.info.version))
    .message(8, paths)
    .message(9, definitions);
  for (const requirement of security) out.message(12, requirement);
  return out.message(13, securityDefinitions);
}
