import { afterEach, describe, expect, it } from 'vitest';
import { CRDS, startHarness, type Harness } from './harness.js';

// Validation ratcheting (kube 1.33, GA): objects stored under a loose schema stay updatable after the CRD tightens it,
// as long as the update leaves the values that break the new schema as they were.

const loose = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        size: { type: 'string' },
        other: { type: 'string' },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } },
        },
        hosts: { type: 'array', items: { type: 'string' } },
        tags: { type: 'array', 'x-kubernetes-list-type': 'atomic', items: { type: 'string' } },
        labels: { type: 'array', items: { type: 'string' } },
      },
    },
    status: { type: 'object', properties: { seen: { type: 'integer' } } },
  },
};

/** The same fields, each now constrained so that the objects created before break it. */
const tight = structuredClone(loose) as any;
const props = tight.properties.spec.properties;
props.size.enum = ['small', 'large'];
props.ports.items.properties.port.maximum = 100;
props.hosts.items.maxLength = 5;
props.tags.items.maxLength = 5;
props.labels['x-kubernetes-list-type'] = 'set';
tight.properties.spec.required = ['owner'];
props.owner = { type: 'string' };

const crd = (schema: unknown) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', kind: 'Widget' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema }, subresources: { status: {} } }],
  },
});

const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';
const MERGE = { 'content-type': 'application/merge-patch+json' };
const JSON_PATCH = { 'content-type': 'application/json-patch+json' };

let h: Harness | undefined;
afterEach(async () => {
  await h?.server.stop();
  h = undefined;
});

/** A server whose widget `old` was stored under the loose schema, then the CRD tightened. */
async function tightened(): Promise<Harness> {
  h = await startHarness();
  await h.establish(crd(loose));
  const spec = {
    size: 'medium',
    other: 'a',
    ports: [{ name: 'http', port: 8080 }, { name: 'ok', port: 80 }],
    hosts: ['far-too-long', 'ok'],
    tags: ['far-too-long'],
    labels: ['x', 'x'],
  };
  const created = await h.req('POST', WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'old' }, spec });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const current = (await h.req('GET', `${CRDS}/widgets.example.com`)).body;
  current.spec.versions[0].schema.openAPIV3Schema = tight;
  expect((await h.req('PUT', `${CRDS}/widgets.example.com`, current)).status).toBe(200);
  // Served with the new schema once a new object breaking it is refused.
  await h.until(async () => (await h!.req('POST', `${WIDGETS}?dryRun=All`, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'n' }, spec: { owner: 'x', size: 'medium' } })).status === 422);
  return h;
}

const causes = (res: { body: any }) => (res.body.details?.causes ?? []).map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);

describe('custom resources: schema validation ratchets on update, as kube 1.33', () => {
  it('an update that leaves the invalid values alone is stored; metadata-only and status writes too', async () => {
    const h = await tightened();
    const labelled = await h.req('PATCH', `${WIDGETS}/old`, { metadata: { labels: { team: 'a' } } }, MERGE);
    expect(labelled.status, JSON.stringify(labelled.body)).toBe(200);
    const status = await h.req('PATCH', `${WIDGETS}/old/status`, { status: { seen: 1 } }, MERGE);
    expect(status.status, JSON.stringify(status.body)).toBe(200);
    // A replace with the object as read (kubectl edit with nothing changed, or a controller's PUT).
    const got = (await h.req('GET', `${WIDGETS}/old`)).body;
    expect((await h.req('PUT', `${WIDGETS}/old`, got)).status).toBe(200);
  });

  it('changing a field of spec reports the errors of spec itself (its required field) but not of unchanged children', async () => {
    const h = await tightened();
    const res = await h.req('PATCH', `${WIDGETS}/old`, { spec: { other: 'b' } }, MERGE);
    expect(res.status).toBe(422);
    // spec changed, so its missing required field counts; size, ports, hosts, tags and labels were left alone.
    expect(causes(res)).toEqual(['spec.owner: Required value']);
    const fixed = await h.req('PATCH', `${WIDGETS}/old`, { spec: { other: 'b', owner: 'me' } }, MERGE);
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
  });

  it('a changed value must meet the schema, even when the old value did not', async () => {
    const h = await tightened();
    const res = await h.req('PATCH', `${WIDGETS}/old`, { spec: { owner: 'me', size: 'huge' } }, MERGE);
    expect(causes(res)).toEqual(['spec.size: Unsupported value: "huge": supported values: "small", "large"']);
    expect((await h.req('PATCH', `${WIDGETS}/old`, { spec: { owner: 'me', size: 'small' } }, MERGE)).status).toBe(200);
  });

  it('map-list items correlate by key: reordered or joined by new items they ratchet, a changed item does not', async () => {
    const h = await tightened();
    const reordered = await h.req('PATCH', `${WIDGETS}/old`, { spec: { owner: 'me', ports: [{ name: 'new', port: 1 }, { name: 'ok', port: 80 }, { name: 'http', port: 8080 }] } }, MERGE);
    expect(reordered.status, JSON.stringify(reordered.body)).toBe(200);
    const changed = await h.req('PATCH', `${WIDGETS}/old`, { spec: { ports: [{ name: 'http', port: 8081 }, { name: 'ok', port: 80 }] } }, MERGE);
    expect(causes(changed)).toEqual(['spec.ports[0].port: Invalid value: 8081: spec.ports[0].port in body should be less than or equal to 100']);
  });

  it('items of a list without a list type correlate by index; items of atomic lists do not correlate', async () => {
    const h = await tightened();
    // hosts[0] stays where it was: ratchets although a host was added after it.
    const appended = await h.req('PATCH', `${WIDGETS}/old`, [
      { op: 'add', path: '/spec/owner', value: 'me' },
      { op: 'add', path: '/spec/hosts/-', value: 'new' },
    ], JSON_PATCH);
    expect(appended.status, JSON.stringify(appended.body)).toBe(200);
    // Moved to another index, it is a new value there.
    const moved = await h.req('PATCH', `${WIDGETS}/old`, [{ op: 'add', path: '/spec/hosts/0', value: 'a' }], JSON_PATCH);
    expect(causes(moved)).toEqual(['spec.hosts[1]: Too long: may not be more than 5 bytes']);
    // An atomic list is one value: changed as a whole, every item is checked.
    const tags = await h.req('PATCH', `${WIDGETS}/old`, [{ op: 'add', path: '/spec/tags/-', value: 'b' }], JSON_PATCH);
    expect(causes(tags)).toEqual(['spec.tags[0]: Too long: may not be more than 5 bytes']);
  });

  it('duplicates in a set list stored before it was one are kept until an update leaves none; new ones are refused', async () => {
    const h = await tightened();
    // The old object already had duplicates: the list's uniqueness is not held against updates of it.
    const kept = await h.req('PATCH', `${WIDGETS}/old`, { spec: { owner: 'me', labels: ['x', 'x', 'y'] } }, MERGE);
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect((await h.req('PATCH', `${WIDGETS}/old`, { spec: { labels: ['x', 'y'] } }, MERGE)).status).toBe(200);
    // Once unique, a duplicate is refused again.
    const dup = await h.req('PATCH', `${WIDGETS}/old`, { spec: { labels: ['y', 'y'] } }, MERGE);
    expect(causes(dup)).toEqual(['spec.labels[1]: Duplicate value: "y"']);
  });

  it('a hostile update with an error in each of 20,000 list items is answered, each item matched once', async () => {
    const h = await tightened();
    const n = 20_000;
    const ports = Array.from({ length: n }, (_, i) => ({ name: `p${i}`, port: 1000 + i }));
    const tags = Array.from({ length: n }, (_, i) => `tag-too-long-${i}`);
    // Stored while every item was valid under the old schema... (a replace of the whole object, as a controller would).
    const got = (await h.req('GET', `${WIDGETS}/old`)).body;
    got.spec = { ...got.spec, owner: 'me', ports: ports.map((p) => ({ ...p, port: 1 })), tags: tags.map(() => 'ok') };
    expect((await h.req('PUT', `${WIDGETS}/old`, got)).status).toBe(200);
    // ...then every item broken at once: every port over the maximum, every tag too long.
    const stored = (await h.req('GET', `${WIDGETS}/old`)).body;
    stored.spec = { ...stored.spec, ports, tags };
    const res = await h.req('PUT', `${WIDGETS}/old`, stored);
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('spec.ports[19999].port: Invalid value: 20999');
    // Matching each error's value anew took minutes (every error scanned the old list); the limit is generous for CI.
  }, 60_000);

  it('creates are not ratcheted', async () => {
    const h = await tightened();
    const got = (await h.req('GET', `${WIDGETS}/old`)).body;
    const copy = { apiVersion: got.apiVersion, kind: got.kind, metadata: { name: 'copy' }, spec: got.spec };
    const res = await h.req('POST', WIDGETS, copy);
    expect(res.status).toBe(422);
    expect(causes(res)).toContain('spec.size: Unsupported value: "medium": supported values: "small", "large"');
  });
});
