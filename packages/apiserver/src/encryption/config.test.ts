import { describe, expect, it } from 'vitest';
import { loadEncryptionConfig } from './config.js';
import { bytes } from './transformer.js';

const KEY32 = Buffer.alloc(32, 1).toString('base64');
const KEY16 = Buffer.alloc(16, 2).toString('base64');
const CTX = bytes('/registry/x');
const header = 'apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\n';
const prefixOf = (config: ReturnType<typeof loadEncryptionConfig>, group: string, resource: string) =>
  Buffer.from(config.transformerFor(group, resource).toStorage(bytes('{}'), CTX)).toString('latin1').split(':').slice(0, 5).join(':');

describe('EncryptionConfiguration', () => {
  it('gives each resource its rule: exact, then the group wildcard, then *.*, else identity', () => {
    const config = loadEncryptionConfig(`${header}resources:
  - resources: [secrets]
    providers: [{aescbc: {keys: [{name: key1, secret: ${KEY32}}]}}, {identity: {}}]
  - resources: ['*.apps']
    providers: [{aesgcm: {keys: [{name: g, secret: ${KEY16}}]}}]
  - resources: ['*.*']
    providers: [{secretbox: {keys: [{name: s, secret: ${KEY32}}]}}]
`);
    expect(config.resources).toEqual(['secrets', '*.apps', '*.*']);
    expect(prefixOf(config, '', 'secrets')).toBe('k8s:enc:aescbc:v1:key1');
    expect(prefixOf(config, 'apps', 'deployments')).toBe('k8s:enc:aesgcm:v1:g');
    expect(prefixOf(config, '', 'configmaps')).toBe('k8s:enc:secretbox:v1:s');
    expect(prefixOf(config, 'rbac.authorization.k8s.io', 'roles')).toBe('k8s:enc:secretbox:v1:s');

    const only = loadEncryptionConfig(`${header}resources: [{resources: [secrets], providers: [{identity: {}}]}]`);
    expect(Buffer.from(only.transformerFor('', 'configmaps').toStorage(bytes('{}'), CTX)).toString()).toBe('{}');
    expect(() => only.transformerFor('', 'configmaps').fromStorage(bytes('k8s:enc:aescbc:v1:k:...'), CTX)).toThrow('identity transformer tried to read encrypted data');
  });

  it('reads JSON too, and every provider listed reads (the first writes)', () => {
    const json = JSON.stringify({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'EncryptionConfiguration',
      resources: [{ resources: ['secrets'], providers: [{ identity: {} }, { aescbc: { keys: [{ name: 'old', secret: KEY32 }] } }] }],
    });
    const config = loadEncryptionConfig(json);
    const aes = loadEncryptionConfig(`${header}resources: [{resources: [secrets], providers: [{aescbc: {keys: [{name: old, secret: ${KEY32}}]}}]}]`);
    const sealed = aes.transformerFor('', 'secrets').toStorage(bytes('{"a":1}'), CTX);
    expect(config.transformerFor('', 'secrets').fromStorage(sealed, CTX)).toMatchObject({ stale: true });
    expect(Buffer.from(config.transformerFor('', 'secrets').toStorage(bytes('{}'), CTX)).toString()).toBe('{}');
  });

  it("refuses what kube refuses, in kube's words", () => {
    const fail = (resources: string) => {
      try {
        loadEncryptionConfig(`${header}resources: ${resources}`);
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    expect(fail(`[{resources: [secrets], providers: [{aescbc: {keys: [{name: k, secret: ${Buffer.alloc(8).toString('base64')}}]}}]}]`)).toBe(
      'error while parsing file: resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 8, expected one of [16 24 32]',
    );
    expect(fail(`[{resources: [secrets], providers: [{secretbox: {keys: [{name: k, secret: ${KEY16}}]}}]}]`)).toBe(
      'error while parsing file: resources[0].providers[0].secretbox.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 16, expected one of [32]',
    );
    expect(fail(`[{resources: [secrets], providers: [{aesgcm: {keys: [{name: k, secret: 'not base64!'}]}}]}]`)).toBe(
      'error while parsing file: resources[0].providers[0].aesgcm.keys[0].secret: Invalid value: "REDACTED": secrets must be base64 encoded',
    );
    expect(fail(`[{resources: [secrets], providers: [{aesgcm: {keys: []}}]}]`)).toBe(
      'error while parsing file: resources[0].providers[0].aesgcm.keys: Required value: at least one keys is required',
    );
    expect(fail(`[{resources: [secrets], providers: [{aesgcm: {keys: [{secret: ${KEY16}}]}}, {identity: {}, aescbc: {keys: [{name: a, secret: ${KEY16}}]}}]}]`)).toMatch(
      /^error while parsing file: \[resources\[0\]\.providers\[0\]\.aesgcm\.keys\[0\]\.name: Required value: name is a mandatory field for a key, resources\[0\]\.providers\[1\]: Invalid value: .*: more than one provider specified in a single element, should split into different list elements\]$/,
    );
    expect(fail(`[{resources: ['*'], providers: [{identity: {}}]}]`)).toBe(
      `error while parsing file: resources[0].resources[0]: Invalid value: "*": use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources`,
    );
    expect(fail(`[{resources: [Secrets], providers: [{identity: {}}]}]`)).toBe(
      'error while parsing file: resources[0].resources[0]: Invalid value: "Secrets": resource name should not contain capital letters',
    );
    expect(fail(`[{resources: [secrets, '*.'], providers: [{identity: {}}]}]`)).toBe(
      `error while parsing file: resources[0].resources: Invalid value: []string{"secrets", "*."}: using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked`,
    );
    expect(fail(`[{resources: ['*.*'], providers: [{identity: {}}]}, {resources: [secrets], providers: [{identity: {}}]}]`)).toBe(
      'error while building transformers: resource "secrets" is masked by earlier rule "*.*"',
    );
    expect(fail(`[{resources: ['*.'], providers: [{identity: {}}]}, {resources: [configmaps], providers: [{identity: {}}]}]`)).toBe(
      'error while building transformers: resource "configmaps" is masked by earlier rule "*."',
    );
    expect(fail(`[]`)).toBe('error while parsing file: resources: Required value: at least one resources is required');
    expect(fail(`[{resources: [secrets], providers: [{aescbc: {keys: [{name: k, secret: ${KEY32}, extra: 1}]}}]}]`)).toBe(
      'error while parsing file: strict decoding error: unknown field "resources[0].providers[0].aescbc.keys[0].extra"',
    );
    expect(fail(`[{resources: [secrets], providers: [{kms: {name: x, endpoint: 'unix:///kms.sock'}}]}]`)).toContain('kms');
    expect(() => loadEncryptionConfig('apiVersion: v1\nkind: ConfigMap\n')).toThrow(/^error while parsing file: no kind "ConfigMap" is registered for version "v1"/);
    expect(() => loadEncryptionConfig('')).toThrow('is empty');
  });
});
