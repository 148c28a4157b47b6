// B3: encode/decode throughput of the scenarios' own objects per wire format, in-process, the way the server
// encodes them (JSON.stringify, yaml's stringify, Kapi's Protobuf codec with the k8s envelope, cbor-x with the
// self-described tag). Folds in packages/apiserver/bench/codecs.mjs, on ConfigMaps instead of a Pod.
import { performance } from 'node:perf_hooks';
import { group as core } from '@kapi/api-core';
import { createMessageCodec, decodeProtobufObject, encodeProtobufObject } from '@kapi/apimachinery';
import { decode as decodeCbor, Encoder } from 'cbor-x';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { storedConfigMap, storedConfigMapList } from './objects.mjs';

const codec = createMessageCodec(core.protobuf);
const cbor = new Encoder({ useRecords: false, mapsAsObjects: true, variableMapSize: true });
const SELF_DESCRIBED = Uint8Array.of(0xd9, 0xd9, 0xf7);

function formats(message) {
  return {
    JSON: { encode: (o) => Buffer.from(JSON.stringify(o)), decode: (b) => JSON.parse(b.toString()) },
    YAML: { encode: (o) => Buffer.from(toYaml(o)), decode: (b) => parseYaml(b.toString()) },
    Protobuf: { encode: (o) => encodeProtobufObject(codec, message, o), decode: (b) => decodeProtobufObject(codec, message, b) },
    CBOR: {
      encode: (o) => {
        const body = cbor.encode(o);
        const out = new Uint8Array(3 + body.length);
        out.set(SELF_DESCRIBED);
        out.set(body, 3);
        return out;
      },
      decode: (b) => decodeCbor(b),
    },
  };
}

/** Operations per second of fn, for about `seconds` (after a short warm-up), bounded by maxOps. */
function opsPerSecond(fn, seconds, maxOps = 5_000_000) {
  const warmUntil = performance.now() + Math.min(200, seconds * 250);
  while (performance.now() < warmUntil) fn();
  let n = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end && n < maxOps) {
    fn();
    n++;
  }
  return n / ((performance.now() - start) / 1000);
}

/**
 * For each object (one ConfigMap, and a ConfigMapList of `listItems`) and format: encoded size, encode and
 * decode operations per second, and encode MB/s.
 */
export function measureCodecs({ seconds = 0.5, listItems = 500 }) {
  const objects = {
    ConfigMap: { value: storedConfigMap('bench', 'cm-000000'), message: 'k8s.io.api.core.v1.ConfigMap' },
    [`ConfigMapList(${listItems})`]: { value: storedConfigMapList('bench', listItems), message: 'k8s.io.api.core.v1.ConfigMapList' },
  };
  const rows = [];
  for (const [object, { value, message }] of Object.entries(objects)) {
    for (const [format, f] of Object.entries(formats(message))) {
      const bytes = f.encode(value);
      const encodeOps = opsPerSecond(() => f.encode(value), seconds);
      const decodeOps = opsPerSecond(() => f.decode(bytes), seconds);
      rows.push({ object, format, bytes: bytes.length, encodeOps, decodeOps, encodeMBps: (encodeOps * bytes.length) / 1e6 });
    }
  }
  return { seconds, listItems, node: process.version, rows };
}
