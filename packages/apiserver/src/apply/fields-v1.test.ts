import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromFieldsV1, serializeFieldsV1, toFieldsV1 } from './fields-v1.js';
import { has, paths, SetBuilder, setOf, type FieldSet } from './field-set.js';
import { fieldPath, keyPE, parsePE, pathString, type PathElement } from './path-element.js';

/** The decoding spelled out: every path an entry names inserted into one set (structured-merge-diff's FromJSON). */
function byPaths(value: Record<string, unknown>): FieldSet {
  const b = new SetBuilder();
  const read = (obj: Record<string, unknown>, prefix: PathElement[]): boolean => {
    let any = false;
    for (const [key, child] of Object.entries(obj)) {
      if (key === '.' || !'fkvi'.includes(key[0]!)) continue;
      any = true;
      const path = [...prefix, parsePE(key)];
      if (!read(child as Record<string, unknown>, path) || Object.hasOwn(child as object, '.')) b.insert(path);
    }
    return any;
  };
  read(value, []);
  return b.build();
}

/** fieldsV1 keys in any order, some naming one element two ways (`k:` fields reordered, `v:1` and `v:1.0`). */
const keys = fc.constantFrom('f:a', 'f:b', 'f:c', 'f:é', 'k:{"name":"x"}', 'k:{"a":1,"b":2}', 'k:{"b":2,"a":1}', 'v:1', 'v:1.0', 'v:"s"', 'i:0', 'r:unknown', '.');
const fieldsV1 = fc.letrec<{ node: Record<string, unknown> }>((tie) => ({
  node: fc.dictionary(keys, fc.oneof({ maxDepth: 4 }, fc.constant({}), tie('node')), { maxKeys: 6 }),
})).node;

// structured-merge-diff fieldpath/serialize_test.go, TestSerializeV1GoldenData.
const SMD_GOLDEN = [
  String.raw`{"f:aaa":{},"f:aab":{},"f:aac":{},"f:aad":{},"f:aae":{},"f:aaf":{},"k:{\"name\":\"first\"}":{},"k:{\"name\":\"second\"}":{},"k:{\"port\":443,\"protocol\":\"tcp\"}":{},"k:{\"port\":443,\"protocol\":\"udp\"}":{},"v:1":{},"v:2":{},"v:3":{},"v:\"aa\"":{},"v:\"ab\"":{},"v:true":{},"i:1":{},"i:2":{},"i:3":{},"i:4":{}}`,
  String.raw`{"f:aaa":{"k:{\"name\":\"second\"}":{"v:3":{"f:aab":{}}},"v:3":{},"v:true":{}},"f:aab":{"f:aaa":{},"f:aaf":{"k:{\"port\":443,\"protocol\":\"udp\"}":{"k:{\"port\":443,\"protocol\":\"tcp\"}":{}}},"k:{\"name\":\"first\"}":{}},"f:aac":{"f:aaa":{"v:1":{}},"f:aac":{},"v:3":{"k:{\"name\":\"second\"}":{}}},"f:aad":{"f:aac":{"v:1":{}},"f:aaf":{"k:{\"name\":\"first\"}":{"k:{\"name\":\"first\"}":{}}},"i:1":{"i:1":{},"i:3":{"v:true":{}}}},"f:aae":{"f:aae":{},"k:{\"port\":443,\"protocol\":\"tcp\"}":{"k:{\"port\":443,\"protocol\":\"udp\"}":{}},"i:4":{"f:aaf":{}}},"f:aaf":{"i:1":{"f:aac":{}},"i:2":{},"i:3":{}},"k:{\"name\":\"first\"}":{"f:aad":{"f:aaf":{}}},"k:{\"port\":443,\"protocol\":\"tcp\"}":{"f:aaa":{"f:aad":{}}},"k:{\"port\":443,\"protocol\":\"udp\"}":{"f:aac":{},"k:{\"name\":\"first\"}":{"i:3":{}},"k:{\"port\":443,\"protocol\":\"udp\"}":{"i:4":{}}},"v:1":{"f:aac":{"i:4":{}},"f:aaf":{},"k:{\"port\":443,\"protocol\":\"tcp\"}":{}},"v:2":{"f:aad":{"f:aaf":{}},"i:1":{}},"v:3":{"f:aaa":{},"k:{\"name\":\"first\"}":{},"i:2":{}},"v:\"aa\"":{"f:aab":{"f:aaf":{}},"f:aae":{},"k:{\"name\":\"first\"}":{"f:aad":{}},"i:2":{}},"v:\"ab\"":{"f:aaf":{"i:4":{}},"k:{\"port\":443,\"protocol\":\"tcp\"}":{},"k:{\"port\":443,\"protocol\":\"udp\"}":{},"v:1":{"k:{\"port\":443,\"protocol\":\"udp\"}":{}},"i:1":{"f:aae":{"i:4":{}}}},"v:true":{"k:{\"name\":\"second\"}":{"f:aaa":{}},"i:2":{"k:{\"port\":443,\"protocol\":\"tcp\"}":{}}},"i:1":{"i:3":{"f:aaf":{}}},"i:2":{"f:aae":{},"k:{\"port\":443,\"protocol\":\"tcp\"}":{"v:1":{}}},"i:3":{"f:aab":{"v:true":{"v:\"aa\"":{}}},"f:aaf":{},"i:1":{}},"i:4":{"v:\"aa\"":{"f:aab":{"k:{\"name\":\"second\"}":{}}}}}`,
];

// managedFields kube-apiserver served for `kubectl create deployment nginx-0930 --image=nginx` (v1.31).
const KUBECTL_CREATE_DEPLOYMENT = String.raw`{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:progressDeadlineSeconds":{},"f:replicas":{},"f:revisionHistoryLimit":{},"f:selector":{},"f:strategy":{"f:rollingUpdate":{".":{},"f:maxSurge":{},"f:maxUnavailable":{}},"f:type":{}},"f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}}}`;

// A Deployment's Update entry with env and ports map-lists (multi-key ports), as served by kube.
const ENV_AND_PORTS = String.raw`{"f:metadata":{"f:labels":{".":{},"f:app":{},"f:cyberarmor.inject":{}}},"f:spec":{"f:progressDeadlineSeconds":{},"f:replicas":{},"f:revisionHistoryLimit":{},"f:selector":{},"f:strategy":{"f:rollingUpdate":{".":{},"f:maxSurge":{},"f:maxUnavailable":{}},"f:type":{}},"f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"demoservice\"}":{".":{},"f:env":{".":{},"k:{\"name\":\"ARMO_TEST_NAME\"}":{".":{},"f:name":{},"f:value":{}},"k:{\"name\":\"CAA_ENABLE_CRASH_REPORTER\"}":{".":{},"f:name":{},"f:value":{}},"k:{\"name\":\"DEMO_FOLDERS\"}":{".":{},"f:name":{},"f:value":{}},"k:{\"name\":\"SERVER_PORT\"}":{".":{},"f:name":{},"f:value":{}},"k:{\"name\":\"SLEEP_DURATION\"}":{".":{},"f:name":{},"f:value":{}}},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},"k:{\"containerPort\":8089,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:protocol":{}}},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}}}`;

// A custom resource's entries (its zero object has no spec, so spec itself is owned: `.`).
const CUSTOM_RESOURCE = String.raw`{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{".":{},"f:build":{},"f:kamelet":{},"f:profile":{},"f:resources":{}}}`;

describe('fieldsV1', () => {
  it.each([...SMD_GOLDEN, KUBECTL_CREATE_DEPLOYMENT, ENV_AND_PORTS, CUSTOM_RESOURCE].map((s, i) => [i, s]))('round-trips upstream sample %i byte for byte', (_i, text) => {
    const set = fromFieldsV1(text);
    expect(serializeFieldsV1(set)).toBe(text);
    expect(JSON.stringify(toFieldsV1(set))).toBe(text);
    expect(serializeFieldsV1(fromFieldsV1(JSON.parse(text)))).toBe(text);
  });

  it('decodes any entries as the set of the paths they name, whatever the order of their keys', () => {
    fc.assert(
      fc.property(fieldsV1, (value) => {
        expect(serializeFieldsV1(fromFieldsV1(value))).toBe(serializeFieldsV1(byPaths(value)));
      }),
      { numRuns: 2_000 },
    );
  });

  it('drops keys of unknown element types (TestDropUnknown)', () => {
    expect(serializeFieldsV1(fromFieldsV1('{"f:aaa":{},"r:aab":{}}'))).toBe('{"f:aaa":{}}');
  });

  it('decodes members, "." and map-list keys', () => {
    const set = fromFieldsV1(KUBECTL_CREATE_DEPLOYMENT);
    expect(has(set, fieldPath('metadata.labels'))).toBe(true);
    expect(has(set, fieldPath('metadata'))).toBe(false);
    expect(has(set, fieldPath('spec.replicas'))).toBe(true);
    const container = [...fieldPath('spec.template.spec.containers'), keyPE([['name', 'nginx']])];
    expect(has(set, container)).toBe(true);
    expect(has(set, [...container, ...fieldPath('image')])).toBe(true);
    expect(paths(set).map(pathString)).toContain('.spec.template.spec.containers[name="nginx"].image');
  });

  it('escapes like Go: <, > and & as \\u escapes; key values with their JSON types', () => {
    const set = setOf(fieldPath('metadata.annotations.a&b<c>'), [{ kind: 'field', name: 'ports' }, keyPE([['protocol', 'TCP'], ['containerPort', 80]])]);
    expect(serializeFieldsV1(set)).toBe(String.raw`{"f:metadata":{"f:annotations":{"f:a\u0026b\u003cc\u003e":{}}},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{}}}`);
    expect(JSON.stringify(toFieldsV1(set))).toBe(String.raw`{"f:metadata":{"f:annotations":{"f:a&b<c>":{}}},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{}}}`);
  });
});
