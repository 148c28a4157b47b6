#!/usr/bin/env node
// Encode/decode throughput of one object per wire format (JSON, YAML, Protobuf, CBOR), in-process.
// Run after a build: `node packages/apiserver/bench/codecs.mjs [seconds-per-case]`. Prints one table.
import { performance } from 'node:perf_hooks';
import { group as core } from '@kapi/api-core';
import { createMessageCodec, decodeProtobufObject, encodeProtobufObject } from '@kapi/apimachinery';
import { decode as decodeCbor, Encoder } from 'cbor-x';
import { parse as parseYaml, stringify as toYaml } from 'yaml';

const seconds = Number(process.argv[2] ?? 1);
const codec = createMessageCodec(core.protobuf);
const POD = 'k8s.io.api.core.v1.Pod';
const cbor = new Encoder({ useRecords: false, mapsAsObjects: true, variableMapSize: true });

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-7d4b9c5f8-x2x9z', namespace: 'default', uid: '0b3c8a4e-1f2d-4c5b-9a8e-7d6c5b4a3f2e', resourceVersion: '123456',
    creationTimestamp: '2026-01-01T00:00:00Z', labels: { app: 'web', 'pod-template-hash': '7d4b9c5f8' },
    annotations: { 'example.com/owner': 'team-a' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d4b9c5f8', uid: 'a1b2c3d4-0000-4000-8000-000000000001', controller: true, blockOwnerDeletion: true }],
  },
  spec: {
    containers: [{
      name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80, protocol: 'TCP' }],
      resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
      env: [{ name: 'MODE', value: 'production' }, { name: 'LOG_LEVEL', value: 'info' }],
      volumeMounts: [{ name: 'config', mountPath: '/etc/web' }],
    }],
    volumes: [{ name: 'config', configMap: { name: 'web-config' } }],
    restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', serviceAccountName: 'default', nodeName: 'node-1',
  },
  status: { phase: 'Running', podIP: '10.0.0.12', startTime: '2026-01-01T00:00:05Z', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:09Z' }] },
};

const formats = {
  JSON: { encode: (o) => Buffer.from(JSON.stringify(o)), decode: (b) => JSON.parse(b.toString()) },
  YAML: { encode: (o) => Buffer.from(toYaml(o)), decode: (b) => parseYaml(b.toString()) },
  Protobuf: { encode: (o) => encodeProtobufObject(codec, POD, o), decode: (b) => decodeProtobufObject(codec, POD, b) },
  CBOR: { encode: (o) => cbor.encode(o), decode: (b) => decodeCbor(b) },
};

function measure(fn) {
  for (let i = 0; i < 200; i++) fn();
  let n = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) fn();
    n += 100;
  }
  return n / ((performance.now() - start) / 1000);
}

const rows = [];
for (const [name, f] of Object.entries(formats)) {
  const bytes = f.encode(pod);
  rows.push({
    format: name,
    bytes: bytes.length,
    'encode ops/s': Math.round(measure(() => f.encode(pod))),
    'decode ops/s': Math.round(measure(() => f.decode(bytes))),
  });
}
console.log(`node ${process.version}, ${seconds}s per case, one Pod object`);
console.table(rows);
