import { afterEach, describe, expect, it } from 'vitest';
import { CRDS, fixture, startHarness, type Harness } from './harness.js';

const CT = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const cronTab = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name },
  spec: { cronSpec: '* * * * */5', image: 'my-cron', ...spec },
});

let h: Harness | undefined;
afterEach(async () => {
  await h?.server.stop();
  h = undefined;
});

describe('custom resources of an established CRD', () => {
  it('are served with defaults applied and unknown fields pruned, carry a generation, and appear in discovery', async () => {
    h = await startHarness();
    const crd = await h.establish(fixture('crontab-crd.yaml'));
    expect(crd.status.acceptedNames).toMatchObject({ plural: 'crontabs', kind: 'CronTab', listKind: 'CronTabList', shortNames: ['ct'] });
    expect(crd.status.storedVersions).toEqual(['v1']);
    const created = await h.req('POST', CT, { ...cronTab('a', { unknownField: 'x' }), extra: 1 });
    expect(created.status).toBe(201);
    expect(created.body.spec).toEqual({ cronSpec: '* * * * */5', image: 'my-cron', replicas: 1 });
    expect(created.body.extra).toBeUndefined();
    expect(created.body.metadata.generation).toBe(1);
    const resources = await h.req('GET', '/apis/stable.example.com/v1');
    expect(resources.body.resources.map((r: any) => r.name).sort()).toEqual(['crontabs', 'crontabs/scale', 'crontabs/status']);
    expect(resources.body.resources.find((r: any) => r.name === 'crontabs')).toMatchObject({ kind: 'CronTab', namespaced: true, shortNames: ['ct'], categories: ['all'], singularName: 'crontab' });
  });

  it('refuses invalid objects with kube\'s field paths and messages', async () => {
    h = await startHarness();
    await h.establish(fixture('crontab-crd.yaml'));
    const refused = async (spec: Record<string, unknown>) => {
      const res = await h!.req('POST', CT, cronTab('bad', spec));
      expect(res.status).toBe(422);
      return res.body.message as string;
    };
    expect(await refused({ replicas: 20 })).toBe('CronTab.stable.example.com "bad" is invalid: spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10');
    expect(await refused({ replicas: 'three' })).toBe(
      'CronTab.stable.example.com "bad" is invalid: spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    );
    expect(await refused({ color: 'purple' })).toBe('CronTab.stable.example.com "bad" is invalid: spec.color: Unsupported value: "purple": supported values: "red", "green", "blue"');
    expect(await refused({ image: 'x'.repeat(41) })).toBe('CronTab.stable.example.com "bad" is invalid: spec.image: Too long: may not be more than 40 bytes');
    expect(await refused({ cronSpec: 'often' })).toBe(
      `CronTab.stable.example.com "bad" is invalid: spec.cronSpec: Invalid value: "often": spec.cronSpec in body should match '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'`,
    );
    expect(await refused({ ports: [{ port: 80 }] })).toBe('CronTab.stable.example.com "bad" is invalid: spec.ports[0].name: Required value');
  });

  it('refuse metadata of the wrong types rather than store it', async () => {
    h = await startHarness();
    await h.establish(fixture('crontab-crd.yaml'));
    const res = await h.req('POST', CT, { ...cronTab('typed'), metadata: { name: 'typed', labels: { a: 1 }, annotations: ['x'] } });
    expect(res.status).toBe(422);
    expect(res.body.details.causes.map((c: any) => c.field).sort()).toEqual(['metadata.annotations', 'metadata.labels.a']);
    expect((await h.req('GET', `${CT}/typed`)).status).toBe(404);
  });

  it("match patterns as Go's RE2 does, in linear time: a hostile value cannot make a pattern backtrack", async () => {
    h = await startHarness();
    const crd = fixture('crontab-crd.yaml');
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.image.pattern = '^(a+)+$';
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.image.maxLength = 100;
    await h.establish(crd);
    // A backtracking engine takes about 2^60 steps for this value: the test would never end.
    const res = await h.req('POST', CT, cronTab('evil', { image: `${'a'.repeat(60)}b` }));
    expect(res.status).toBe(422);
    expect(res.body.message).toContain(`spec.image in body should match '^(a+)+$'`);
    const fine = await h.req('POST', CT, cronTab('fine', { image: 'aaa' }));
    expect(fine.body.message).toBeUndefined();
    expect(fine.status).toBe(201);
  });

  it('keep status and spec apart through the status subresource, and scale through scale', async () => {
    h = await startHarness();
    await h.establish(fixture('crontab-crd.yaml'));
    await h.req('POST', CT, { ...cronTab('a'), status: { replicas: 9 } });
    expect((await h.req('GET', `${CT}/a`)).body.status).toBeUndefined();
    const status = await h.req('PATCH', `${CT}/a/status`, { status: { replicas: 2, labelSelector: 'app=a' }, spec: { image: 'ignored' } }, { 'content-type': 'application/merge-patch+json' });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ status: { replicas: 2 }, spec: { image: 'my-cron' }, metadata: { generation: 1 } });
    const main = await h.req('PATCH', `${CT}/a`, { status: { replicas: 5 }, spec: { image: 'new' } }, { 'content-type': 'application/merge-patch+json' });
    expect(main.body).toMatchObject({ status: { replicas: 2 }, spec: { image: 'new' }, metadata: { generation: 2 } });
    const scale = await h.req('GET', `${CT}/a/scale`);
    expect(scale.body).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 1 }, status: { replicas: 2, selector: 'app=a' } });
    const scaled = await h.req('PATCH', `${CT}/a/scale`, { spec: { replicas: 4 } }, { 'content-type': 'application/merge-patch+json' });
    expect(scaled.status).toBe(200);
    expect((await h.req('GET', `${CT}/a`)).body.spec.replicas).toBe(4);
  });

  it('answer Protobuf with 406, strategic merge patch with 415, and select by selectableFields', async () => {
    h = await startHarness();
    await h.establish(fixture('crontab-crd.yaml'));
    await h.req('POST', CT, cronTab('red', { color: 'red' }));
    await h.req('POST', CT, cronTab('blue', { color: 'blue' }));
    // No Protobuf form: 406, its Status written as JSON (kube's fallback when negotiation fails).
    const protobuf = await h.req('GET', `${CT}/red`, undefined, { accept: 'application/vnd.kubernetes.protobuf' });
    expect(protobuf.status).toBe(406);
    expect(protobuf.headers.get('content-type')).toBe('application/json');
    expect(protobuf.body).toMatchObject({ kind: 'Status', reason: 'NotAcceptable' });
    const smp = await h.req('PATCH', `${CT}/red`, { spec: { image: 'x' } }, { 'content-type': 'application/strategic-merge-patch+json' });
    expect(smp.status).toBe(415);
    const selected = await h.req('GET', `${CT}?fieldSelector=spec.color%3Dred`);
    expect(selected.body.items.map((i: any) => i.metadata.name)).toEqual(['red']);
    expect((await h.req('GET', `${CT}?fieldSelector=spec.image%3Dx`)).status).toBe(400);
  });

  it('get what every kind gets: chunked lists, dry-run, fieldValidation, YAML, managedFields, OpenAPI v2 and v3', async () => {
    h = await startHarness();
    await h.establish(fixture('crontab-crd.yaml'));
    for (const name of ['a', 'b', 'c']) await h.req('POST', `${CT}?fieldManager=tester`, cronTab(name));
    const first = await h.req('GET', `${CT}?limit=2`);
    expect(first.body.items.map((i: any) => i.metadata.name)).toEqual(['a', 'b']);
    const rest = await h.req('GET', `${CT}?limit=2&continue=${encodeURIComponent(first.body.metadata.continue)}`);
    expect(rest.body.items.map((i: any) => i.metadata.name)).toEqual(['c']);
    const dry = await h.req('POST', `${CT}?dryRun=All`, cronTab('dry'));
    expect(dry.status).toBe(201);
    expect((await h.req('GET', `${CT}/dry`)).status).toBe(404);
    const warned = await h.req('POST', `${CT}?fieldValidation=Warn`, { ...cronTab('warned'), spec: { ...cronTab('warned').spec, extra: 1 } });
    expect(warned.status).toBe(201);
    expect(warned.headers.get('warning')).toBe('299 - "unknown field \\"spec.extra\\""');
    expect((await h.req('POST', `${CT}?fieldValidation=Strict`, { ...cronTab('strict'), spec: { ...cronTab('strict').spec, extra: 1 } })).status).toBe(400);
    const yaml = await h.req('GET', `${CT}/a`, undefined, { accept: 'application/yaml' });
    expect(yaml.body).toContain('kind: CronTab');
    expect((await h.req('GET', `${CT}/a`)).body.metadata.managedFields[0]).toMatchObject({ manager: 'tester', operation: 'Update', apiVersion: 'stable.example.com/v1' });
    const v2 = await h.req('GET', '/openapi/v2');
    expect(v2.body.definitions['com.example.stable.v1.CronTab'].properties.spec.properties.replicas).toMatchObject({ type: 'integer', maximum: 10 });
    const v3 = await h.req('GET', '/openapi/v3/apis/stable.example.com/v1');
    expect(v3.body.components.schemas['com.example.stable.v1.CronTab']['x-kubernetes-group-version-kind']).toEqual([{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }]);
  });

  it('merge list-map items by their keys under server-side apply', async () => {
    h = await startHarness();
    await h.establish(fixture('crontab-crd.yaml'));
    const apply = (manager: string, ports: unknown[], force = false) =>
      h!.req('PATCH', `${CT}/a?fieldManager=${manager}${force ? '&force=true' : ''}`, { ...cronTab('a'), spec: { ...cronTab('a').spec, ports } }, { 'content-type': 'application/apply-patch+yaml' });
    expect((await apply('one', [{ name: 'http', port: 80 }])).status).toBe(201);
    const both = await apply('two', [{ name: 'admin', port: 9000 }]);
    expect(both.status).toBe(200);
    expect(both.body.spec.ports).toEqual([{ name: 'http', port: 80 }, { name: 'admin', port: 9000 }]);
    const conflict = await apply('two', [{ name: 'http', port: 8080 }]);
    expect(conflict.status).toBe(409);
  });

  it('stop being served when the CRD is deleted, after every custom resource is deleted; a new CRD starts empty', async () => {
    h = await startHarness();
    const definition = fixture('crontab-crd.yaml');
    await h.establish(definition);
    await h.req('POST', CT, cronTab('a'));
    await h.req('POST', CT, { ...cronTab('held'), metadata: { name: 'held', finalizers: ['example.com/hold'] } });
    const deleted = await h.req('DELETE', `${CRDS}/crontabs.stable.example.com`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.metadata.finalizers).toEqual(['customresourcecleanup.apiextensions.k8s.io']);
    // The held object keeps the CRD: terminating, new objects refused.
    const terminating = await h.until(async () => {
      const crd = (await h!.req('GET', `${CRDS}/crontabs.stable.example.com`)).body;
      return crd.status?.conditions?.find((c: any) => c.type === 'Terminating' && c.status === 'True') && crd;
    });
    expect(terminating.metadata.deletionTimestamp).toBeTruthy();
    const refused = await h.req('POST', CT, cronTab('late'));
    expect(refused.status).toBe(405);
    expect(refused.body.message).toBe('create not allowed while custom resource definition is terminating');
    await h.until(async () => (await h!.req('GET', CT)).body.items?.map((i: any) => i.metadata.name).join() === 'held');
    await h.req('PATCH', `${CT}/held`, { metadata: { finalizers: null } }, { 'content-type': 'application/merge-patch+json' });
    await h.until(async () => (await h!.req('GET', `${CRDS}/crontabs.stable.example.com`)).status === 404);
    expect((await h.req('GET', CT)).status).toBe(404);
    expect((await h.req('GET', '/apis')).body.groups.map((g: any) => g.name)).not.toContain('stable.example.com');
    await h.establish(definition);
    expect((await h.req('GET', CT)).body.items).toEqual([]);
  });

  it('follow a CRD update at once: new short names in discovery, new printer columns in tables, new schema rules', async () => {
    h = await startHarness();
    const crd = await h.establish(fixture('crontab-crd.yaml'));
    await h.req('POST', CT, cronTab('a', { color: 'red' }));
    crd.spec.names.shortNames = ['ct', 'cron'];
    crd.spec.versions[0].additionalPrinterColumns.push({ name: 'Color', type: 'string', jsonPath: '.spec.color' });
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.image.maxLength = 5;
    expect((await h.req('PUT', `${CRDS}/crontabs.stable.example.com`, crd)).status).toBe(200);
    const resource = await h.until(async () => {
      const found = (await h!.req('GET', '/apis/stable.example.com/v1')).body.resources?.find((r: any) => r.name === 'crontabs');
      return found?.shortNames?.length === 2 && found;
    });
    expect(resource.shortNames).toEqual(['ct', 'cron']);
    const table = await h.req('GET', CT, undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.body.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Spec', 'Replicas', 'Age', 'Color']);
    expect(table.body.rows[0].cells[4]).toBe('red');
    expect((await h.req('POST', CT, cronTab('b', { image: 'too-long' }))).status).toBe(422);
    // A new default reaches objects stored before it, in reads from the watch cache too (kube decodes them anew).
    expect((await h.req('POST', CT, cronTab('plain', { image: 'x' }))).status).toBe(201);
    const current = (await h.req('GET', `${CRDS}/crontabs.stable.example.com`)).body;
    current.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.color.default = 'green';
    expect((await h.req('PUT', `${CRDS}/crontabs.stable.example.com`, current)).status).toBe(200);
    await h.until(async () => (await h!.req('GET', `${CT}/plain?resourceVersion=0`)).body.spec?.color === 'green');
    const items = (await h.req('GET', `${CT}?resourceVersion=0`)).body.items;
    expect(Object.fromEntries(items.map((i: any) => [i.metadata.name, i.spec.color]))).toEqual({ a: 'red', plain: 'green' });
  });

  it('refuses names another CRD of the group already serves, through its conditions', async () => {
    h = await startHarness();
    await h.establish(fixture('crontab-crd.yaml'));
    const twin = fixture('crontab-crd.yaml');
    twin.metadata.name = 'crontabtwins.stable.example.com';
    twin.spec.names = { plural: 'crontabtwins', singular: 'crontabtwin', kind: 'CronTab' };
    expect((await h.req('POST', CRDS, twin)).status).toBe(201);
    const refused = await h.until(async () => {
      const got = (await h!.req('GET', `${CRDS}/crontabtwins.stable.example.com`)).body;
      return got.status?.conditions?.length && got;
    });
    expect(refused.status.conditions.map((c: any) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['NamesAccepted', 'False', 'KindConflict', '"CronTab" is already in use'],
      ['Established', 'False', 'NotAccepted', 'not all names are accepted'],
    ]);
    expect((await h.req('GET', '/apis/stable.example.com/v1/namespaces/default/crontabtwins')).status).toBe(404);
    // A short name another CRD uses is enough to keep a new CRD from being established and served.
    const shorty = fixture('crontab-crd.yaml');
    shorty.metadata.name = 'shorties.stable.example.com';
    shorty.spec.names = { plural: 'shorties', singular: 'shorty', kind: 'Shorty', shortNames: ['ct'] };
    expect((await h.req('POST', CRDS, shorty)).status).toBe(201);
    const held = await h.until(async () => {
      const got = (await h!.req('GET', `${CRDS}/shorties.stable.example.com`)).body;
      return got.status?.conditions?.length && got;
    });
    expect(held.status.conditions.map((c: any) => [c.type, c.status, c.reason])).toEqual([
      ['NamesAccepted', 'False', 'ShortNamesConflict'],
      ['Established', 'False', 'NotAccepted'],
    ]);
    expect((await h.req('POST', '/apis/stable.example.com/v1/namespaces/default/shorties', { apiVersion: 'stable.example.com/v1', kind: 'Shorty', metadata: { name: 's' } })).status).toBe(404);
  });
});

describe('the defaults of a CRD', () => {
  it('must validate against the schema node that declares them, with its CEL rules', async () => {
    h = await startHarness();
    const crd = fixture('crontab-crd.yaml');
    const spec = crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties;
    spec.replicas.default = 'one';
    spec.color.default = 'purple';
    spec.image.default = 'ab';
    spec.image['x-kubernetes-validations'] = [{ rule: 'size(self) > 2', message: 'image names are longer' }];
    const refused = await h.req('POST', CRDS, crd);
    expect(refused.status).toBe(422);
    const causes = refused.body.details.causes.map((c: any) => `${c.field}: ${c.message}`);
    expect(causes).toEqual([
      'spec.validation.openAPIV3Schema.properties[spec].properties[image].default: Invalid value: "string": image names are longer',
      'spec.validation.openAPIV3Schema.properties[spec].properties[color].default: Unsupported value: "purple": supported values: "red", "green", "blue"',
      'spec.validation.openAPIV3Schema.properties[spec].properties[replicas].default: Invalid value: "string":  in body must be of type integer: "string"',
    ]);
  });
});
