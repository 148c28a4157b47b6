// core/v1 Events and events.k8s.io/v1 Events are one stored object (kube's cohabiting resources): written through
// either group, read, listed and watched through both, converted as kube's pkg/apis/events/v1/conversion.go.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCorePlugin } from '@kapi/api-core';
import { plugin as rbacPlugin } from '@kapi/api-rbac';
import { createApiServer, loadEncryptionConfig, rbacAuthorizer, tokenFileAuthenticator, x509Authenticator, type ApiServer, type FetchEnv } from '@kapi/apiserver';
import { createMemoryBackend, type StorageBackend } from '@kapi/storage';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { coreToEvents, eventsToCore, plugin } from '../src/index.js';

const CORE = '/api/v1/namespaces/ns/events';
const EVENTS = '/apis/events.k8s.io/v1/namespaces/ns/events';

const coreEvent = (name: string) => ({
  kind: 'Event',
  apiVersion: 'v1',
  metadata: { name, namespace: 'ns', labels: { app: 'web' } },
  involvedObject: { kind: 'Pod', namespace: 'ns', name: 'web-1', uid: 'uid-1', apiVersion: 'v1', resourceVersion: '7', fieldPath: 'spec.containers{app}' },
  reason: 'Started',
  message: 'Started container app',
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: '2024-01-01T00:00:00Z',
  lastTimestamp: '2024-01-01T00:05:00Z',
  count: 3,
  type: 'Normal',
  eventTime: '2024-01-01T00:00:00.000000Z',
  series: { count: 2, lastObservedTime: '2024-01-01T00:05:00.000000Z' },
  action: 'Start',
  related: { kind: 'Node', name: 'node-1', apiVersion: 'v1' },
  reportingComponent: 'kubelet',
  reportingInstance: 'node-1',
});

// The same event as events.k8s.io/v1 shows it, in kube's field order.
const eventsEvent = (name: string) => ({
  kind: 'Event',
  apiVersion: 'events.k8s.io/v1',
  metadata: { name, namespace: 'ns', labels: { app: 'web' } },
  eventTime: '2024-01-01T00:00:00.000000Z',
  series: { count: 2, lastObservedTime: '2024-01-01T00:05:00.000000Z' },
  reportingController: 'kubelet',
  reportingInstance: 'node-1',
  action: 'Start',
  reason: 'Started',
  regarding: { kind: 'Pod', namespace: 'ns', name: 'web-1', uid: 'uid-1', apiVersion: 'v1', resourceVersion: '7', fieldPath: 'spec.containers{app}' },
  related: { kind: 'Node', name: 'node-1', apiVersion: 'v1' },
  note: 'Started container app',
  type: 'Normal',
  deprecatedSource: { component: 'kubelet', host: 'node-1' },
  deprecatedFirstTimestamp: '2024-01-01T00:00:00Z',
  deprecatedLastTimestamp: '2024-01-01T00:05:00Z',
  deprecatedCount: 3,
});

/** An object without the metadata the server sets (uid, resourceVersion, creationTimestamp, managedFields). */
const userFields = (obj: any) => {
  const { uid: _u, resourceVersion: _r, creationTimestamp: _c, managedFields: _m, ...metadata } = obj.metadata;
  return { ...obj, metadata };
};

type Req = (method: string, path: string, body?: unknown, env?: FetchEnv, headers?: Record<string, string>) => Promise<{ status: number; body: any }>;
const requester = (server: ApiServer): Req => async (method, path, body, env, headers = {}) => {
  const res = await server.fetch(
    new Request(`http://kapi.test${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }),
    env,
  );
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
};

async function openWatch(server: ApiServer, path: string) {
  const controller = new AbortController();
  const res = await server.fetch(new Request(`http://kapi.test${path}`, { signal: controller.signal }));
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const events: any[] = [];
  let buffered = '';
  return {
    async next(count: number) {
      while (events.length < count) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error('the watch ended');
        buffered += decoder.decode(chunk.value, { stream: true });
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          events.push(JSON.parse(buffered.slice(0, nl)));
          buffered = buffered.slice(nl + 1);
        }
      }
      return events.splice(0, count);
    },
    close: () => controller.abort(),
  };
}

describe('conversion (kube pkg/apis/events/v1/conversion.go)', () => {
  it('maps every field both ways, in kube field order, without mutating its input', () => {
    const core = coreEvent('e');
    const converted = coreToEvents(structuredClone(core));
    expect(converted).toEqual(eventsEvent('e'));
    expect(Object.keys(converted)).toEqual(Object.keys(eventsEvent('e')));
    const back = eventsToCore(converted);
    expect(back).toEqual(core);
    expect(Object.keys(back)).toEqual(Object.keys(core));
    expect(converted).toEqual(eventsEvent('e'));
  });

  it('gives core the involvedObject Go always writes when regarding is empty', () => {
    const { regarding: _r, ...event } = eventsEvent('e');
    expect(eventsToCore(event).involvedObject).toEqual({});
  });
});

const FIXTURES = join(import.meta.dirname, '../../e2e/test/fixtures');
const fixture = (name: string) => readFileSync(join(FIXTURES, `${name}.json`), 'utf8');

describe('upstream fixtures (k8s.io/api testdata)', () => {
  it('each form converts to the other and back to the very same bytes', () => {
    for (const [name, through] of [
      ['events.k8s.io.v1.Event', eventsToCore],
      ['core.v1.Event', coreToEvents],
    ] as const) {
      const text = fixture(name);
      const obj = JSON.parse(text);
      const back = through === eventsToCore ? coreToEvents(eventsToCore(obj)) : eventsToCore(coreToEvents(obj));
      expect(JSON.stringify(back, null, 2)).toBe(text);
    }
  });

  it('the events.k8s.io fixture, created through the server, reads back as kube writes it through both groups', async () => {
    const server = createApiServer({ storage: createMemoryBackend(), plugins: [createCorePlugin(), plugin] });
    await server.start();
    const req = requester(server);
    expect((await req('POST', '/api/v1/namespaces', { metadata: { name: 'namespacevalue' } })).status).toBe(201);
    const sent = JSON.parse(fixture('events.k8s.io.v1.Event'));
    for (const field of ['uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation', 'selfLink', 'managedFields', 'generateName', 'finalizers']) delete sent.metadata[field];
    sent.metadata.namespace = 'namespacevalue';
    sent.metadata.name = 'fixture';
    expect((await req('POST', '/apis/events.k8s.io/v1/namespaces/namespacevalue/events', sent)).status).toBe(201);
    const raw = async (path: string) => (await server.fetch(new Request(`http://kapi.test${path}`))).text();
    const asEvents = JSON.parse(await raw(`/apis/events.k8s.io/v1/namespaces/namespacevalue/events/fixture`));
    const asCore = JSON.parse(await raw(`/api/v1/namespaces/namespacevalue/events/fixture`));
    // everything but the metadata the server sets is the client's, in kube's order
    const strip = (o: any) => ({ ...o, metadata: sent.metadata });
    expect(JSON.stringify(strip(asEvents))).toBe(JSON.stringify(sent));
    expect(JSON.stringify(strip(asCore))).toBe(JSON.stringify(eventsToCore(sent)));
    expect(Object.keys(asCore)).toEqual(Object.keys(JSON.parse(fixture('core.v1.Event'))));
    await server.stop?.();
  });
});

describe('core/v1 and events.k8s.io/v1 Events: one stored object', () => {
  let server: ApiServer;
  let storage: StorageBackend;
  let req: Req;
  beforeAll(async () => {
    storage = createMemoryBackend();
    server = createApiServer({ storage, plugins: [createCorePlugin(), plugin] });
    await server.start();
    req = requester(server);
    expect((await req('POST', '/api/v1/namespaces', { metadata: { name: 'ns' } })).status).toBe(201);
  });
  afterAll(async () => {
    await server.stop?.();
  });

  it('is stored once, as core v1, under /registry/events/', async () => {
    expect((await req('POST', EVENTS, eventsEvent('stored'))).status).toBe(201);
    const kv = (await storage.get('/registry/events/ns/stored')).kv!;
    const stored = JSON.parse(Buffer.from(kv.value).toString());
    expect(stored.apiVersion).toBe('v1');
    expect(stored.message).toBe('Started container app');
    expect(stored.note).toBeUndefined();
    expect((await storage.get('/registry/events.k8s.io/events/ns/stored')).kv).toBeUndefined();
    expect((await req('DELETE', `${EVENTS}/stored`)).status).toBe(200);
  });

  it('an Event created through core v1 is read and listed through events.k8s.io/v1, fields mapped exactly', async () => {
    const created = await req('POST', CORE, coreEvent('from-core'));
    expect(created.status).toBe(201);
    const got = await req('GET', `${EVENTS}/from-core`);
    expect(got.status).toBe(200);
    expect(userFields(got.body)).toEqual(eventsEvent('from-core'));
    expect(Object.keys(got.body)).toEqual(Object.keys(eventsEvent('from-core')));
    expect(got.body.metadata.uid).toBe(created.body.metadata.uid);
    expect(got.body.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
    const list = await req('GET', EVENTS);
    expect(list.body.kind).toBe('EventList');
    expect(list.body.apiVersion).toBe('events.k8s.io/v1');
    expect(list.body.items.map((e: any) => [e.metadata.name, e.note, e.message])).toEqual([['from-core', 'Started container app', undefined]]);
    expect((await req('DELETE', `${CORE}/from-core`)).status).toBe(200);
  });

  it('an Event created through events.k8s.io/v1 is read and listed through core v1', async () => {
    const created = await req('POST', EVENTS, eventsEvent('from-events'));
    expect(created.status).toBe(201);
    expect(userFields(created.body)).toEqual(eventsEvent('from-events'));
    const got = await req('GET', `${CORE}/from-events`);
    expect(userFields(got.body)).toEqual(coreEvent('from-events'));
    expect(Object.keys(got.body)).toEqual(Object.keys(coreEvent('from-events')));
    const list = await req('GET', '/api/v1/events');
    expect(list.body.apiVersion).toBe('v1');
    expect(list.body.items.map((e: any) => [e.metadata.name, e.message, e.note])).toEqual([['from-events', 'Started container app', undefined]]);
    expect((await req('DELETE', `${EVENTS}/from-events`)).status).toBe(200);
  });

  it('a deletion through one group is seen through the other', async () => {
    expect((await req('POST', CORE, coreEvent('gone-a'))).status).toBe(201);
    expect((await req('POST', EVENTS, eventsEvent('gone-b'))).status).toBe(201);
    expect((await req('DELETE', `${EVENTS}/gone-a`)).status).toBe(200);
    expect((await req('DELETE', `${CORE}/gone-b`)).status).toBe(200);
    for (const path of [`${CORE}/gone-a`, `${EVENTS}/gone-a`, `${CORE}/gone-b`, `${EVENTS}/gone-b`]) {
      const res = await req('GET', path);
      expect(res.status).toBe(404);
    }
    expect((await req('GET', `${EVENTS}/gone-a`)).body.details).toEqual({ name: 'gone-a', group: 'events.k8s.io', kind: 'events' });
  });

  it('an update through events.k8s.io/v1 keeps every core value (each has an events.k8s.io counterpart)', async () => {
    expect((await req('POST', CORE, coreEvent('upd'))).status).toBe(201);
    const asEvents = (await req('GET', `${EVENTS}/upd`)).body;
    const put = await req('PUT', `${EVENTS}/upd`, { ...asEvents, note: 'Restarted', deprecatedCount: 4 });
    expect(put.status).toBe(200);
    const patched = await req('PATCH', `${EVENTS}/upd`, { series: { count: 5 } }, undefined, { 'content-type': 'application/merge-patch+json' });
    expect(patched.status).toBe(200);
    const core = (await req('GET', `${CORE}/upd`)).body;
    expect(userFields(core)).toEqual({ ...coreEvent('upd'), message: 'Restarted', count: 4, series: { count: 5, lastObservedTime: '2024-01-01T00:05:00.000000Z' } });
    // and the reverse: a core update is seen through events.k8s.io
    expect((await req('PATCH', `${CORE}/upd`, { message: 'Stopped' }, undefined, { 'content-type': 'application/merge-patch+json' })).status).toBe(200);
    expect((await req('GET', `${EVENTS}/upd`)).body.note).toBe('Stopped');
    expect((await req('DELETE', `${CORE}/upd`)).status).toBe(200);
  });

  it('a watch in either group sees the writes made through the other, in its own form', async () => {
    const throughEvents = await openWatch(server, `${EVENTS}?watch=true`);
    const throughCore = await openWatch(server, `${CORE}?watch=true`);
    expect((await req('POST', CORE, coreEvent('w1'))).status).toBe(201);
    expect((await req('POST', EVENTS, eventsEvent('w2'))).status).toBe(201);
    expect((await req('PATCH', `${EVENTS}/w1`, { note: 'changed' }, undefined, { 'content-type': 'application/merge-patch+json' })).status).toBe(200);
    expect((await req('DELETE', `${CORE}/w2`)).status).toBe(200);
    const seenEvents = await throughEvents.next(4);
    expect(seenEvents.map((e) => [e.type, e.object.apiVersion, e.object.metadata.name, e.object.note])).toEqual([
      ['ADDED', 'events.k8s.io/v1', 'w1', 'Started container app'],
      ['ADDED', 'events.k8s.io/v1', 'w2', 'Started container app'],
      ['MODIFIED', 'events.k8s.io/v1', 'w1', 'changed'],
      ['DELETED', 'events.k8s.io/v1', 'w2', 'Started container app'],
    ]);
    expect(userFields(seenEvents[0].object)).toEqual(eventsEvent('w1'));
    const seenCore = await throughCore.next(4);
    expect(seenCore.map((e) => [e.type, e.object.apiVersion, e.object.metadata.name, e.object.message])).toEqual([
      ['ADDED', 'v1', 'w1', 'Started container app'],
      ['ADDED', 'v1', 'w2', 'Started container app'],
      ['MODIFIED', 'v1', 'w1', 'changed'],
      ['DELETED', 'v1', 'w2', 'Started container app'],
    ]);
    expect(userFields(seenCore[1].object)).toEqual(coreEvent('w2'));
    throughEvents.close();
    throughCore.close();
    expect((await req('DELETE', `${CORE}/w1`)).status).toBe(200);
  });

  it('field selectors: events.k8s.io labels (regarding.*, reportingController) and core ones (involvedObject.*, source)', async () => {
    expect((await req('POST', CORE, coreEvent('fs-1'))).status).toBe(201);
    expect((await req('POST', CORE, { ...coreEvent('fs-2'), involvedObject: { kind: 'Pod', name: 'other' }, source: { component: 'scheduler' }, reportingComponent: 'scheduler' })).status).toBe(201);
    const names = async (path: string) => {
      const res = await req('GET', path);
      expect(res.status).toBe(200);
      return res.body.items.map((e: any) => e.metadata.name);
    };
    expect(await names(`${EVENTS}?fieldSelector=regarding.name%3Dweb-1`)).toEqual(['fs-1']);
    expect(await names(`${EVENTS}?fieldSelector=reportingController%3Dscheduler`)).toEqual(['fs-2']);
    expect(await names(`${EVENTS}?fieldSelector=regarding.kind%3DPod,type%3DNormal,reason%3DStarted`)).toEqual(['fs-1', 'fs-2']);
    expect(await names(`${CORE}?fieldSelector=involvedObject.name%3Dother`)).toEqual(['fs-2']);
    expect(await names(`${CORE}?fieldSelector=source%3Dkubelet`)).toEqual(['fs-1']);
    // as kube: events.k8s.io has no `source` nor `involvedObject.*` label
    expect((await req('GET', `${EVENTS}?fieldSelector=involvedObject.name%3Dweb-1`)).status).toBe(400);
    expect((await req('GET', `${EVENTS}?fieldSelector=source%3Dkubelet`)).status).toBe(400);
    const watch = await openWatch(server, `${EVENTS}?watch=true&fieldSelector=regarding.name%3Dwatched`);
    expect((await req('POST', CORE, { ...coreEvent('fs-3'), involvedObject: { kind: 'Pod', name: 'watched' } })).status).toBe(201);
    const [added] = await watch.next(1);
    expect([added.type, added.object.metadata.name, added.object.regarding]).toEqual(['ADDED', 'fs-3', { kind: 'Pod', name: 'watched' }]);
    watch.close();
    for (const name of ['fs-1', 'fs-2', 'fs-3']) expect((await req('DELETE', `${CORE}/${name}`)).status).toBe(200);
  });

  it('object counts and storage metrics name each served resource once, the cache counters once per collection', async () => {
    expect((await req('POST', CORE, coreEvent('m1'))).status).toBe(201);
    expect((await req('POST', EVENTS, eventsEvent('m2'))).status).toBe(201);
    const res = await server.fetch(new Request('http://kapi.test/metrics'));
    const text = await res.text();
    const lines = (name: string) => text.split('\n').filter((l) => l.startsWith(`${name}{`));
    expect(lines('apiserver_storage_objects').filter((l) => l.includes('"events'))).toEqual([
      'apiserver_storage_objects{resource="events"} 2',
      'apiserver_storage_objects{resource="events.events.k8s.io"} 2',
    ]);
    expect(lines('apiserver_watch_cache_events_received_total').some((l) => l.includes('events.events.k8s.io'))).toBe(false);
    // etcd request metrics name the resource a key is stored as
    expect(text).not.toMatch(/etcd_request_duration_seconds_count\{[^}]*events\.events\.k8s\.io/);
    for (const path of [`${CORE}/m1`, `${CORE}/m2`]) expect((await req('DELETE', path)).status).toBe(200);
  });
});

describe('per group authorization, one encryption config', () => {
  it('RBAC stays per group: core events allowed, events.k8s.io events refused, as kube', async () => {
    const ADMIN: FetchEnv = { peerCertificate: { subject: { CN: 'kapi-admin', O: 'system:masters' } } };
    const server = createApiServer({
      storage: createMemoryBackend(),
      plugins: [createCorePlugin(), rbacPlugin, plugin],
      authenticators: [x509Authenticator(), tokenFileAuthenticator('jane-token,jane,uid-jane,"dev"\n')],
      authorizers: [rbacAuthorizer()],
    });
    await server.start();
    const req = requester(server);
    const jane = { authorization: 'Bearer jane-token' };
    expect((await req('POST', '/api/v1/namespaces', { metadata: { name: 'ns' } }, ADMIN)).status).toBe(201);
    const RBAC = '/apis/rbac.authorization.k8s.io/v1/namespaces/ns';
    const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'core-events' }, rules: [{ apiGroups: [''], resources: ['events'], verbs: ['get', 'list', 'create'] }] };
    expect((await req('POST', `${RBAC}/roles`, role, ADMIN)).status).toBe(201);
    const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'jane' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'core-events' }, subjects: [{ kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' }] };
    expect((await req('POST', `${RBAC}/rolebindings`, binding, ADMIN)).status).toBe(201);
    expect((await req('POST', CORE, coreEvent('mine'), undefined, jane)).status).toBe(201);
    expect((await req('GET', `${CORE}/mine`, undefined, undefined, jane)).status).toBe(200);
    const refused = await req('GET', `${EVENTS}/mine`, undefined, undefined, jane);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('events.events.k8s.io "mine" is forbidden: User "jane" cannot get resource "events" in API group "events.k8s.io" in the namespace "ns"');
    expect((await req('GET', EVENTS, undefined, undefined, jane)).status).toBe(403);
    expect((await req('POST', EVENTS, eventsEvent('theirs'), undefined, jane)).status).toBe(403);
    expect((await req('GET', `${EVENTS}/mine`, undefined, ADMIN)).status).toBe(200);
    await server.stop?.();
  });

  it('encryption at rest configured for `events` covers Events written through events.k8s.io', async () => {
    const storage = createMemoryBackend();
    const encryption = loadEncryptionConfig(`apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [events]
    providers: [{aescbc: {keys: [{name: key1, secret: '${randomBytes(32).toString('base64')}'}]}}, {identity: {}}]
`);
    const server = createApiServer({ storage, plugins: [createCorePlugin(), plugin], encryption });
    await server.start();
    const req = requester(server);
    expect((await req('POST', '/api/v1/namespaces', { metadata: { name: 'ns' } })).status).toBe(201);
    expect((await req('POST', EVENTS, eventsEvent('secret-note'))).status).toBe(201);
    expect((await req('POST', CORE, coreEvent('secret-message'))).status).toBe(201);
    for (const name of ['secret-note', 'secret-message']) {
      const raw = Buffer.from((await storage.get(`/registry/events/ns/${name}`)).kv!.value).toString('latin1');
      expect(raw.startsWith('k8s:enc:aescbc:v1:key1:')).toBe(true);
      expect(raw).not.toContain('Started container app');
      expect((await req('GET', `${EVENTS}/${name}`)).body.note).toBe('Started container app');
      expect((await req('GET', `${CORE}/${name}`)).body.message).toBe('Started container app');
    }
    await server.stop?.();
  });
});
