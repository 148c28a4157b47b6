// A kind served in several versions (wardle's Flunder: v1alpha1, and v1beta1 its storage version) through the
// whole server: the generated converters with the group's hooks, at the storage boundary.
import { conversionHooks, createConversions, group as wardle } from '@kapi/api-wardle';
import { kindConversion, newInvalid, type GroupDefinition } from '@kapi/apimachinery';
import { describe, expect, it } from 'vitest';
import { createResourceRegistry } from '../src/registry/resources.js';
import { groupPlugin } from '../src/index.js';
import { ALL_PLUGINS, startHarness } from './harness.js';

const ALPHA = '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders';
const BETA = '/apis/wardle.example.com/v1beta1/namespaces/default/flunders';

describe('a kind served in several versions', () => {
  it('is written in one version and read in the other, converted by the group hooks, losslessly', async () => {
    const h = await startHarness();
    const created = await h.req('POST', ALPHA, { metadata: { name: 'a', annotations: { mine: 'x' } }, spec: { reference: 'fi', referenceType: 'Fischer' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ apiVersion: 'wardle.example.com/v1alpha1', spec: { reference: 'fi', referenceType: 'Fischer' } });
    const beta = await h.req('GET', `${BETA}/a`);
    expect(beta.body).toMatchObject({ apiVersion: 'wardle.example.com/v1beta1', spec: { fischerReference: 'fi', referenceType: 'Fischer' } });
    expect(beta.body.metadata.annotations).toEqual({ mine: 'x' });

    // v1beta1 holds both references; v1alpha1 shows one and keeps the other in the annotation, so an update through
    // v1alpha1 loses nothing.
    const both = await h.req('POST', BETA, { metadata: { name: 'b' }, spec: { flunderReference: 'f2', fischerReference: 'fi', referenceType: 'Fischer' } });
    expect(both.status).toBe(201);
    const alpha = await h.req('GET', `${ALPHA}/b`);
    expect(alpha.body.spec).toEqual({ reference: 'fi', referenceType: 'Fischer' });
    expect(alpha.body.metadata.annotations).toEqual({ 'conversion.kapi.dev/v1beta1': '{"spec":{"flunderReference":"f2"}}' });
    expect((await h.req('PUT', `${ALPHA}/b`, alpha.body)).status).toBe(200);
    const after = await h.req('GET', `${BETA}/b`);
    expect(after.body.spec).toEqual({ flunderReference: 'f2', fischerReference: 'fi', referenceType: 'Fischer' });
    expect(after.body.metadata.annotations).toBeUndefined();
    await h.server.stop();
  });

  it('cannot be installed without a conversion', () => {
    expect(() => createResourceRegistry([groupPlugin(wardle)])).toThrow(
      "wardle.example.com Flunder is served in v1alpha1, v1beta1 but has no conversion: install the group's plugin (createConversions)",
    );
  });

  it("takes the group definition's generated conversion when the plugin brings none", () => {
    const conversion = kindConversion({ group: 'wardle.example.com', kind: 'Flunder', storageVersion: 'v1beta1', versions: { v1alpha1: { toStorage: { plan: 1 }, fromStorage: { plan: 1 } } } });
    const definition: GroupDefinition = { ...wardle, conversions: { Flunder: conversion } };
    const registry = createResourceRegistry([groupPlugin(definition)]);
    expect(registry.lookup('wardle.example.com', 'v1alpha1', 'flunders')?.conversion).toBe(conversion);
  });

  it('answers a conversion the hook refuses with its Status, and stores nothing', async () => {
    // A hook that cannot convert some input throws a StatusError naming the field.
    const conversions = createConversions({
      Flunder: {
        ...conversionHooks.Flunder,
        toV1beta1FromV1alpha1(from, to, ctx) {
          if (from.spec?.reference === 'x/y') {
            throw newInvalid({ group: 'wardle.example.com', kind: 'Flunder' }, from.metadata?.name ?? '', [
              { type: 'FieldValueInvalid', field: 'spec.reference', badValue: 'x/y', message: 'cannot be converted to v1beta1' },
            ]);
          }
          conversionHooks.Flunder.toV1beta1FromV1alpha1(from, to, ctx);
        },
      },
    });
    const plugins = ALL_PLUGINS.map((p) => (p.definition === wardle ? { ...p, conversions } : p));
    const h = await startHarness({}, { plugins });
    const refused = await h.req('POST', ALPHA, { metadata: { name: 'bad' }, spec: { reference: 'x/y', referenceType: 'Flunder' } });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ kind: 'Status', reason: 'Invalid', details: { causes: [{ field: 'spec.reference' }] } });
    expect(refused.body.message).toBe('Flunder.wardle.example.com "bad" is invalid: spec.reference: Invalid value: "x/y": cannot be converted to v1beta1');
    expect((await h.req('GET', `${BETA}/bad`)).status).toBe(404);
    expect((await h.storage.get('/registry/wardle.example.com/flunders/default/bad')).kv).toBeUndefined();
    // An update refused the same way leaves the stored object as it was.
    expect((await h.req('POST', ALPHA, { metadata: { name: 'good' }, spec: { reference: 'ok', referenceType: 'Flunder' } })).status).toBe(201);
    const before = await h.req('GET', `${BETA}/good`);
    const patch = await h.req('PATCH', `${ALPHA}/good`, { spec: { reference: 'x/y' } }, { 'content-type': 'application/merge-patch+json' });
    expect(patch.status).toBe(422);
    expect(await h.req('GET', `${BETA}/good`)).toMatchObject({ status: 200, body: before.body });
    await h.server.stop();
  });

  describe('the conversion annotation, which any client may write', () => {
    const ANNOTATION = 'conversion.kapi.dev/v1beta1';
    const withAnnotation = (name: string, value: string, spec: Record<string, unknown> = { reference: 'a', referenceType: 'Flunder' }) => ({
      metadata: { name, annotations: { mine: 'kept', [ANNOTATION]: value } },
      spec,
    });
    const stored = async (h: Awaited<ReturnType<typeof startHarness>>, name: string) =>
      JSON.parse(new TextDecoder().decode((await h.storage.get(`/registry/wardle.example.com/flunders/default/${name}`)).kv!.value));

    it('never follows __proto__: the server stays healthy and nothing is polluted', async () => {
      const h = await startHarness();
      expect((await h.req('POST', ALPHA, withAnnotation('pp', '{"__proto__":{"pollutedKapi":"yes"},"spec":{"__proto__":{"pollutedKapi":"yes"}}}'))).status).toBe(201);
      expect(({} as Record<string, unknown>).pollutedKapi).toBeUndefined();
      expect((await h.req('GET', '/healthz')).status).toBe(200);
      expect((await h.req('GET', `${ALPHA}/pp`)).status).toBe(200);
      await h.server.stop();
    });

    it('restores only what the version has no counterpart for: not metadata, status, automatic or unknown fields', async () => {
      const h = await startHarness();
      const forged = JSON.stringify({
        apiVersion: 'v1',
        kind: 'Fischer',
        metadata: { name: 'other', namespace: 'kube-system', uid: 'forged', finalizers: ['evil/x'], deletionTimestamp: '2000-01-01T00:00:00Z' },
        status: { evil: true },
        spec: { referenceType: 'Bogus', extra: 1 },
      });
      expect((await h.req('POST', ALPHA, withAnnotation('inj', forged))).status).toBe(201);
      const obj = await stored(h, 'inj');
      expect(obj).toMatchObject({ apiVersion: 'wardle.example.com/v1beta1', kind: 'Flunder', metadata: { name: 'inj', namespace: 'default' } });
      expect(obj.metadata.uid).not.toBe('forged');
      expect(obj.metadata.finalizers).toBeUndefined();
      expect(obj.metadata.deletionTimestamp).toBeUndefined();
      expect(obj.metadata.annotations).toEqual({ mine: 'kept' });
      expect(obj.spec).toEqual({ flunderReference: 'a', referenceType: 'Flunder' });
      expect(obj.status ?? {}).toEqual({});
      // Annotations too deep to follow, or not JSON objects, are dropped and ignored.
      const deep = `${'{"spec":{"fischerReference":'.repeat(1)}${'{"x":'.repeat(3000)}1${'}'.repeat(3000)}}}`;
      expect((await h.req('POST', ALPHA, withAnnotation('deep', deep))).status).toBe(201);
      expect((await stored(h, 'deep')).spec).toEqual({ flunderReference: 'a', referenceType: 'Flunder' });
      await h.server.stop();
    });

    it('checks the types of what it restores against the storage version: a wrong one is 422 and nothing is stored', async () => {
      const h = await startHarness();
      const res = await h.req('POST', ALPHA, withAnnotation('typed', '{"spec":{"fischerReference":{"a":1}}}'));
      expect(res.status).toBe(422);
      expect(res.body.details.causes).toEqual([expect.objectContaining({ field: 'spec.fischerReference' })]);
      expect((await h.storage.get('/registry/wardle.example.com/flunders/default/typed')).kv).toBeUndefined();
      await h.server.stop();
    });

    it("loses to what the client changed: a new value the hook converted is not overwritten by the old one kept", async () => {
      const h = await startHarness();
      expect((await h.req('POST', BETA, { metadata: { name: 'both' }, spec: { flunderReference: 'a', fischerReference: 'b', referenceType: 'Flunder' } })).status).toBe(201);
      const patched = await h.req('PATCH', `${ALPHA}/both`, { spec: { referenceType: 'Fischer', reference: 'NEWFISH' } }, { 'content-type': 'application/merge-patch+json' });
      expect(patched.status).toBe(200);
      expect(patched.body.spec).toEqual({ reference: 'NEWFISH', referenceType: 'Fischer' });
      // v1alpha1's `reference` was the flunderReference `a`: the client replaced it; the kept fischerReference `b` lost
    // to the new value, as sample-apiserver's conversion stores it.
    expect((await stored(h, 'both')).spec).toEqual({ fischerReference: 'NEWFISH', referenceType: 'Fischer' });
      await h.server.stop();
    });
  });
});
