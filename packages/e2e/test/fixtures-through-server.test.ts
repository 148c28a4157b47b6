import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setupCapabilities } from '@kapi/api-core';
import { createApiServer, type ApiServer } from '@kapi/apiserver';
import { createMessageCodec, decodeProtobufObject, encodeProtobufObject, type GroupDefinition } from '@kapi/apimachinery';
import { createMemoryBackend } from '@kapi/storage';
import { loadDataPlugins, loadGroups } from '../src/groups.js';

const PB = 'application/vnd.kubernetes.protobuf';
const fixturesDir = join(import.meta.dirname, 'fixtures');
// Not created as objects of their own: Scale, Eviction and TokenRequest are bodies of subresources
// (deployments/scale, pods/eviction, serviceaccounts/token), a Binding binds an existing pod (tested with one),
// ComponentStatuses are read-only, and a LocalSubjectAccessReview must name the URL's namespace, which the
// fixture's `namespaceValue` (not a valid namespace name) cannot be.
const NOT_CREATED = new Set([
  'autoscaling.v1.Scale',
  'policy.v1.Eviction',
  'authentication.k8s.io.v1.TokenRequest',
  'core.v1.Binding',
  'core.v1.ComponentStatus',
  'authorization.k8s.io.v1.LocalSubjectAccessReview',
]);
const names = readdirSync(fixturesDir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).filter((n) => !NOT_CREATED.has(n)).sort();

// Server-managed metadata the server sets itself; everything else of the upstream golden object is sent.
const SERVER_FIELDS = ['uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation', 'selfLink', 'managedFields', 'generateName', 'finalizers'];

describe('upstream fixtures through the HTTP server: created from JSON, read back as Protobuf', () => {
  let server: ApiServer;
  let groups: GroupDefinition[];
  beforeAll(async () => {
    // The golden objects have privileged containers: as kube-apiserver with --allow-privileged (kube's fixtures are
    // not validated at all, ours are).
    setupCapabilities({ allowPrivileged: true });
    groups = await loadGroups();
    server = createApiServer({ storage: createMemoryBackend(), plugins: await loadDataPlugins() });
    await server.start();
    await server.fetch(new Request('http://x/api/v1/namespaces', { method: 'POST', body: JSON.stringify({ metadata: { name: 'namespacevalue' } }), headers: { 'content-type': 'application/json' } }));
  });

  for (const name of names) {
    it(name, async () => {
      const fixture = JSON.parse(readFileSync(join(fixturesDir, `${name}.json`), 'utf8'));
      const served = (r: { group: string; version: string; kind: string }) => (r.group ? `${r.group}/${r.version}` : r.version) === fixture.apiVersion && r.kind === fixture.kind;
      const group = groups.find((g) => g.resources.some(served))!;
      const info = group.resources.find(served)!;
      const base = `${info.group ? `/apis/${info.group}` : '/api'}/${info.version}`;
      for (const field of SERVER_FIELDS) delete fixture.metadata[field];
      // one name per fixture: the versions of a kind (autoscaling/v1 and v2 HorizontalPodAutoscaler) share a collection
      const objectName = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      fixture.metadata.name = objectName;
      const namespaced = info.scope === 'Namespaced';
      if (namespaced) fixture.metadata.namespace = 'namespacevalue';
      else delete fixture.metadata.namespace;
      const collection = namespaced ? `${base}/namespaces/namespacevalue/${info.plural}` : `${base}/${info.plural}`;
      const created = await server.fetch(new Request(`http://x${collection}?fieldValidation=Strict`, { method: 'POST', body: JSON.stringify(fixture), headers: { 'content-type': 'application/json' } }));
      const createdBody = (await created.json()) as { kind?: string };
      if (!info.verbs.includes('get')) {
        // Create-only reviews answer in the same request; compare that answer.
        expect(created.status).toBe(201);
        return;
      }
      expect([created.status, createdBody.kind]).toEqual([201, fixture.kind]);
      const asJson = (await (await server.fetch(new Request(`http://x${collection}/${objectName}`))).json()) as Record<string, unknown>;
      const res = await server.fetch(new Request(`http://x${collection}/${objectName}`, { headers: { accept: PB } }));
      expect(res.headers.get('content-type')).toBe(PB);
      const bytes = new Uint8Array(await res.arrayBuffer());
      const codec = createMessageCodec(group.protobuf);
      expect(decodeProtobufObject(codec, info.protobuf.message, bytes)).toEqual(asJson);
      expect(Buffer.from(bytes).equals(Buffer.from(encodeProtobufObject(codec, info.protobuf.message, asJson)))).toBe(true);
    });
  }
});
