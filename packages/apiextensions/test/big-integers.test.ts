// Integers beyond ±(2^53-1) in a custom resource: kube keeps them as int64, this server holds numbers as doubles,
// which would store the nearest one (9007199254740993 as ...992) or write it back in other digits. They are refused
// (400, the words Protobuf bodies are refused in), in JSON, YAML and apply bodies, rather than changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.establish(fixture('crontab-crd.yaml'));
});
afterAll(() => h.server.stop());

const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const json = (name: string, port: string) =>
  `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"${name}"},"spec":{"cronSpec":"* * * * */5","ports":[{"name":"p","port":${port}}]}}`;
const refusal = (format: string, literal: string) => `error decoding ${format}: integer ${literal} exceeds the precision of JSON numbers (2^53 - 1)`;

describe('integers beyond 2^53 - 1', () => {
  it('are refused rather than rounded, in JSON and YAML bodies', async () => {
    const created = await h.req('POST', CRONTABS, json('big', '9007199254740993'));
    expect(created.status).toBe(400);
    expect(created.body.message).toBe(refusal('JSON', '9007199254740993'));
    const yaml = 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: big\nspec:\n  ports:\n  - name: p\n    port: -12345678901234567\n';
    const fromYaml = await h.req('POST', CRONTABS, yaml, { 'content-type': 'application/yaml' });
    expect(fromYaml.status).toBe(400);
    expect(fromYaml.body.message).toBe(refusal('YAML', '-12345678901234567'));
    expect((await h.req('GET', `${CRONTABS}/big`)).status).toBe(404);
  });

  it('are refused in a patch, and the object stays as it was', async () => {
    expect((await h.req('POST', CRONTABS, json('small', '9007199254740991'))).status).toBe(201);
    const patched = await h.req('PATCH', `${CRONTABS}/small`, '{"spec":{"ports":[{"name":"p","port":18014398509481984}]}}', { 'content-type': 'application/merge-patch+json' });
    expect(patched.status).toBe(400);
    expect(patched.body.message).toBe(refusal('JSON', '18014398509481984'));
    const applied = await h.req('PATCH', `${CRONTABS}/small?fieldManager=t`, json('small', '9007199254740992'), { 'content-type': 'application/apply-patch+yaml' });
    expect(applied.status).toBe(400);
    expect(applied.body.message).toBe(refusal('YAML', '9007199254740992'));
    const got = await h.req('GET', `${CRONTABS}/small`);
    expect(got.body.spec.ports).toEqual([{ name: 'p', port: 9007199254740991 }]);
  });

  it('are kept within the bound, and digits in a string are a string', async () => {
    const created = await h.req('POST', CRONTABS, json('bound', '-9007199254740991'));
    expect(created.status).toBe(201);
    expect(created.body.spec.ports[0].port).toBe(-9007199254740991);
    // A 20-digit number in a string is a string.
    const labelled = await h.req('POST', CRONTABS, json('labelled', '1').replace('"name":"labelled"', '"name":"labelled","annotations":{"id":"12345678901234567890"}'));
    expect(labelled.status).toBe(201);
    expect(labelled.body.metadata.annotations.id).toBe('12345678901234567890');
  });
});
