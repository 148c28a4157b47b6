import { describe, expect, it } from 'vitest';
import { startHarness } from './harness.js';

const CM = '/api/v1/namespaces/default/configmaps';
const SECRETS = '/api/v1/namespaces/default/secrets';
const KEY_MESSAGE =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

describe('ConfigMap and Secret keys (they become file names in volumes)', () => {
  it('refuse what kube\'s IsConfigMapKey refuses, with 422 naming each key', async () => {
    const h = await startHarness();
    const res = await h.req('POST', CM, { metadata: { name: 'keys' }, data: { '../../etc/passwd': 'x', '..': 'y', 'a b': 'z', ok: '1' } });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'ConfigMap "keys" is invalid: [' +
        `data[../../etc/passwd]: Invalid value: "../../etc/passwd": ${KEY_MESSAGE}, ` +
        `data[../../etc/passwd]: Invalid value: "../../etc/passwd": must not start with '..', ` +
        `data[..]: Invalid value: "..": must not be '..', ` +
        `data[a b]: Invalid value: "a b": ${KEY_MESSAGE}]`,
    );
    const secret = await h.req('POST', SECRETS, { metadata: { name: 'keys' }, data: { '.': 'eA==' } });
    expect(secret.status).toBe(422);
    expect(secret.body.message).toBe(`Secret "keys" is invalid: data[.]: Invalid value: ".": must not be '.'`);
  });

  it('a key in both data and binaryData is refused; data over 1 MiB is too long', async () => {
    const h = await startHarness();
    const dup = await h.req('POST', CM, { metadata: { name: 'dup' }, data: { k: 'v' }, binaryData: { k: 'dg==' } });
    expect(dup.status).toBe(422);
    expect(dup.body.message).toBe('ConfigMap "dup" is invalid: data[k]: Invalid value: "k": duplicate of key present in binaryData');
    const big = await h.req('POST', CM, { metadata: { name: 'big' }, data: { a: 'x'.repeat(600_000), b: 'y'.repeat(600_000) } });
    expect(big.status).toBe(422);
    expect(big.body.message).toContain('Too long: must have at most 1048576 bytes');
  });
});

describe('Secret data', () => {
  it('must be base64 (400, as kube\'s decoder answers); stringData is merged into data and dropped', async () => {
    const h = await startHarness();
    const bad = await h.req('POST', SECRETS, { metadata: { name: 'b64' }, data: { a: 'not base64!' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('cannot be handled as a Secret');
    const created = await h.req('POST', SECRETS, { metadata: { name: 'sd' }, data: { a: 'YQ==', b: 'b2xk' }, stringData: { b: 'new', c: 'plain text' } });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ a: 'YQ==', b: Buffer.from('new').toString('base64'), c: Buffer.from('plain text').toString('base64') });
    expect(created.body.stringData).toBeUndefined();
    expect(created.body.type).toBe('Opaque');
    const patched = await h.req('PATCH', `${SECRETS}/sd`, { stringData: { d: 'x' } }, { 'content-type': 'application/merge-patch+json' });
    expect(patched.body.data.d).toBe('eA==');
    expect(patched.body.stringData).toBeUndefined();
  });

  it('keeps its type, needs the keys its type requires, and immutable ones stay as they are', async () => {
    const h = await startHarness();
    const tls = await h.req('POST', SECRETS, { metadata: { name: 'tls' }, type: 'kubernetes.io/tls', data: { 'tls.crt': 'eA==' } });
    expect(tls.status).toBe(422);
    expect(tls.body.message).toBe('Secret "tls" is invalid: data[tls.key]: Required value');
    const s = await h.req('POST', SECRETS, { metadata: { name: 'frozen' }, data: { a: 'YQ==', b: 'Yg==' }, immutable: true });
    expect(s.status).toBe(201);
    // The same data in another key order is no change (kube compares maps, not their text).
    const reordered = await h.req('PUT', `${SECRETS}/frozen`, { ...s.body, data: { b: 'Yg==', a: 'YQ==' } });
    expect(reordered.status).toBe(200);
    const retype = await h.req('PATCH', `${SECRETS}/frozen`, { type: 'other' }, { 'content-type': 'application/merge-patch+json' });
    expect(retype.status).toBe(422);
    expect(retype.body.message).toContain('type: Invalid value: "other": field is immutable');
    const change = await h.req('PATCH', `${SECRETS}/frozen`, { data: { a: 'Yg==' } }, { 'content-type': 'application/merge-patch+json' });
    expect(change.status).toBe(422);
    expect(change.body.message).toBe('Secret "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set');
  });
});
