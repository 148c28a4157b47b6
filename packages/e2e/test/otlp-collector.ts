import { once } from 'node:events';
import { createServer, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';

// The part of OpenTelemetry's OTLP trace protocol (opentelemetry/proto/collector/trace/v1) a test reads.
const root = protobuf.parse(`
syntax = "proto3";
package otlp;
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message ScopeSpans { Scope scope = 1; repeated Span spans = 2; }
message Scope { string name = 1; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4; string name = 5; int32 kind = 6;
  fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8; repeated KeyValue attributes = 9;
}
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue { oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; } }
`).root;
const ExportRequest = root.lookupType('otlp.ExportTraceServiceRequest');

export interface CollectedSpan {
  service: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, string | number | boolean>;
}

type Decoded = {
  resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: { traceId: Uint8Array; spanId: Uint8Array; parentSpanId: Uint8Array; name: string; attributes?: KeyValue[] }[] }[] }[];
};
type KeyValue = { key: string; value?: { stringValue?: string; boolValue?: boolean; intValue?: number | { toNumber(): number }; doubleValue?: number } };

const attributesOf = (list: KeyValue[] = []) =>
  Object.fromEntries(
    list.map(({ key, value = {} }) => [
      key,
      value.stringValue ?? value.boolValue ?? (typeof value.intValue === 'object' ? value.intValue.toNumber() : value.intValue) ?? value.doubleValue ?? '',
    ]),
  );
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/**
 * A stand-in OpenTelemetry collector: an h2c gRPC server answering TraceService/Export, keeping the spans it is sent
 * (the real OTLP exporter of the server under test sends them).
 */
export async function startOtlpCollector(): Promise<{ endpoint: string; spans: CollectedSpan[]; calls: string[]; close(): Promise<void> }> {
  const spans: CollectedSpan[] = [];
  const calls: string[] = [];
  const server: Http2Server = createServer();
  server.on('stream', (stream, headers) => {
    calls.push(String(headers[':path']));
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      // gRPC messages: a compressed flag byte, a 4-byte big-endian length, the message.
      const body = Buffer.concat(chunks);
      for (let at = 0; at + 5 <= body.length; ) {
        const length = body.readUInt32BE(at + 1);
        const decoded = ExportRequest.toObject(ExportRequest.decode(body.subarray(at + 5, at + 5 + length))) as Decoded;
        for (const rs of decoded.resourceSpans ?? []) {
          const service = String(attributesOf(rs.resource?.attributes)['service.name'] ?? '');
          for (const ss of rs.scopeSpans ?? []) {
            for (const s of ss.spans ?? []) {
              spans.push({ service, name: s.name, traceId: hex(s.traceId), spanId: hex(s.spanId), parentSpanId: hex(s.parentSpanId ?? new Uint8Array()), attributes: attributesOf(s.attributes) });
            }
          }
        }
        at += 5 + length;
      }
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(Buffer.from([0, 0, 0, 0, 0]));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { endpoint: `127.0.0.1:${port}`, spans, calls, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
