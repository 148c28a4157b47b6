import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

const hasOpenssl = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;
const path = (version: string) => `/apis/example.com/${version}/namespaces/default/gadgets`;

/** A conversion webhook written here: v1beta1 has spec.size, v1 has spec.dimensions.size. */
function convert(obj: any, desired: string): any {
  const out = structuredClone(obj);
  out.apiVersion = desired;
  if (desired === 'example.com/v1') out.spec = { dimensions: { size: obj.spec?.size } };
  else out.spec = { size: obj.spec?.dimensions?.size };
  out.metadata.labels = { ...out.metadata.labels, converted: 'yes' };
  // Only labels and annotations may change: kube puts the rest back.
  out.metadata.name = 'renamed';
  return out;
}

const gadgets = (url: string, caBundle: string) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'gadgets', kind: 'Gadget' },
    conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url, caBundle } } },
    versions: [
      { name: 'v1beta1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'string' } } } } } } },
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { dimensions: { type: 'object', properties: { size: { type: 'string' } } } } } } } },
      },
    ],
  },
});

describe.skipIf(!hasOpenssl)('a CRD whose versions convert through a webhook', () => {
  let webhook: Server;
  let url: string;
  let caBundle: string;
  let mode: 'ok' | 'fail' = 'ok';
  const reviews: any[] = [];
  let h: Harness | undefined;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kapi-webhook-'));
    const res = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(res.stderr);
    const cert = readFileSync(join(dir, 'cert.pem'));
    caBundle = cert.toString('base64');
    webhook = createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const review = JSON.parse(body);
        reviews.push(review);
        const { uid, desiredAPIVersion, objects } = review.request;
        const response = mode === 'ok'
          ? { uid, convertedObjects: objects.map((o: any) => convert(o, desiredAPIVersion)), result: { status: 'Success' } }
          : { uid, result: { status: 'Failure', message: 'the converter is broken today' } };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response }));
      });
    });
    await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(webhook.address() as AddressInfo).port}/convert`;
  });
  afterAll(() => new Promise<void>((resolve) => webhook.close(() => resolve())));
  afterEach(async () => {
    mode = 'ok';
    await h?.server.stop();
    h = undefined;
  });

  it('stores objects in the storage version and answers each version, converted by the webhook (ConversionReview v1)', async () => {
    h = await startHarness();
    await h.establish(gadgets(url, caBundle));
    const created = await h.req('POST', path('v1beta1'), { apiVersion: 'example.com/v1beta1', kind: 'Gadget', metadata: { name: 'g' }, spec: { size: 'M' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ apiVersion: 'example.com/v1beta1', metadata: { name: 'g', labels: { converted: 'yes' } }, spec: { size: 'M' } });
    const raw = JSON.parse(new TextDecoder().decode((await h.storage.get('/registry/example.com/gadgets/default/g')).kv!.value));
    expect(raw).toMatchObject({ apiVersion: 'example.com/v1', metadata: { name: 'g' }, spec: { dimensions: { size: 'M' } } });
    expect((await h.req('GET', `${path('v1')}/g`)).body.spec).toEqual({ dimensions: { size: 'M' } });
    expect((await h.req('GET', path('v1beta1'))).body.items.map((i: any) => i.spec)).toEqual([{ size: 'M' }]);
    // A watch in v1beta1 gets each event converted, in order.
    const list = await h.req('GET', path('v1beta1'));
    const watch = await h.server.fetch(new Request(`http://kapi.test${path('v1beta1')}?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`));
    const reader = watch.body!.getReader();
    for (const size of ['S', 'L']) {
      const made = await h.req('POST', path('v1'), { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: `g-${size.toLowerCase()}` }, spec: { dimensions: { size } } });
      expect(made.status).toBe(201);
    }
    let text = '';
    while (text.split('\n').length < 3) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    await reader.cancel();
    expect(text.trim().split('\n').map((l) => JSON.parse(l)).map((e) => [e.type, e.object.apiVersion, e.object.spec.size])).toEqual([
      ['ADDED', 'example.com/v1beta1', 'S'],
      ['ADDED', 'example.com/v1beta1', 'L'],
    ]);
    expect(reviews[0]).toMatchObject({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { desiredAPIVersion: 'example.com/v1' } });
  });

  it('compares an applier of another version in its own fields, converting through the webhook', async () => {
    h = await startHarness();
    await h.establish(gadgets(url, caBundle));
    const apply = (version: string, manager: string, spec: unknown, force = false) =>
      h!.req('PATCH', `${path(version)}/g?fieldManager=${manager}${force ? '&force=true' : ''}`, { apiVersion: `example.com/${version}`, kind: 'Gadget', metadata: { name: 'g' }, spec },
        { 'content-type': 'application/apply-patch+yaml' });
    expect((await apply('v1beta1', 'alice', { size: 'S' })).status).toBe(201);
    // v1's spec.dimensions.size is v1beta1's spec.size: alice's field, named as she wrote it.
    const conflict = await apply('v1', 'bob', { dimensions: { size: 'L' } });
    expect(conflict.status).toBe(409);
    expect(conflict.body.message).toBe('Apply failed with 1 conflict: conflict with "alice": .spec.size');
    const forced = await apply('v1', 'bob', { dimensions: { size: 'L' } }, true);
    expect(forced.status).toBe(200);
    expect(forced.body.spec).toEqual({ dimensions: { size: 'L' } });
    const byManager = Object.fromEntries(forced.body.metadata.managedFields.map((e: any) => [e.manager, e]));
    expect(Object.keys(byManager)).toEqual(['bob']);
    expect(byManager.bob).toMatchObject({ operation: 'Apply', apiVersion: 'example.com/v1', fieldsV1: { 'f:spec': { 'f:dimensions': { 'f:size': {} } } } });
    // Read in v1beta1, the entry is still bob's v1 one.
    const read = await h.req('GET', `${path('v1beta1')}/g`);
    expect(read.body.spec).toEqual({ size: 'L' });
    expect(read.body.metadata.managedFields).toEqual(forced.body.metadata.managedFields);
  });

  it('answers 500 naming the webhook when it refuses or cannot be reached', async () => {
    h = await startHarness();
    await h.establish(gadgets(url, caBundle));
    await h.req('POST', path('v1'), { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { dimensions: { size: 'S' } } });
    mode = 'fail';
    const refused = await h.req('GET', `${path('v1beta1')}/g`);
    expect(refused.status).toBe(500);
    expect(refused.body.message).toBe('Internal error occurred: conversion webhook for example.com/v1, Kind=Gadget failed: the converter is broken today');
    expect((await h.req('GET', `${path('v1')}/g`)).status).toBe(200);
  });

  it('refuses a webhook whose certificate the caBundle does not verify', async () => {
    h = await startHarness();
    // An EC key: made in milliseconds, where an RSA one can take seconds on a busy machine.
    const other = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=other', '-keyout', '/dev/null'], { encoding: 'utf8' });
    expect(other.status).toBe(0);
    expect(other.stdout).toMatch(/^-----BEGIN CERTIFICATE-----/);
    await h.establish(gadgets(url, Buffer.from(other.stdout).toString('base64')));
    const res = await h.req('POST', path('v1beta1'), { apiVersion: 'example.com/v1beta1', kind: 'Gadget', metadata: { name: 'g' }, spec: { size: 'M' } });
    expect(res.status).toBe(500);
    expect(res.body.message).toMatch(/^Internal error occurred: conversion webhook for example.com\/v1beta1, Kind=Gadget failed: Post "https:\/\/127.0.0.1:\d+\/convert\?timeout=30s": /);
  }, 20_000);
});
