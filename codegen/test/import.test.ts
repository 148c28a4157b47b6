import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers.js';
import { buildKubernetesSchemas, importKubernetes } from '../src/import/index.js';

/**
 * The committed Kubernetes schemas must be exactly what `pnpm codegen import-kubernetes` writes. These tests
 * need the upstream reference data next to the repository and are skipped without it.
 */


const ROOT = repoRoot;
const SCHEMAS = join(ROOT, 'schemas');
const REFERENCE = join(ROOT, '..', 'shared', 'reference', 'kubernetes');
const HAS_REFERENCE = existsSync(join(REFERENCE, 'swagger.json')) && existsSync(join(REFERENCE, 'protobuf-fields.json'));

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

const temps: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-import-'));
  temps.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const readInputs = () => ({
  swagger: JSON.parse(readFileSync(join(REFERENCE, 'swagger.json'), 'utf8')),
  proto: JSON.parse(readFileSync(join(REFERENCE, 'protobuf-fields.json'), 'utf8')),
});

describe.skipIf(!HAS_REFERENCE)('import-kubernetes', () => {
  const { swagger, proto } = HAS_REFERENCE ? readInputs() : { swagger: undefined, proto: undefined };
  const result = HAS_REFERENCE ? buildKubernetesSchemas(swagger, proto) : undefined;
  const schema = (path: string) => JSON.parse(result!.files.get(path)!);

  it('the committed schemas equal a fresh import (run `pnpm codegen import-kubernetes`)', async () => {
    const out = tempDir();
    const written = await importKubernetes({ referenceDir: REFERENCE, schemasDir: out });
    const fresh = written.map((p) => relative(out, p)).sort();
    expect(fresh.length).toBeGreaterThan(100);
    for (const path of fresh) {
      const committed = join(SCHEMAS, path);
      expect(existsSync(committed), `schemas/${path} is missing`).toBe(true);
      expect(readFileSync(committed, 'utf8'), `schemas/${path} is stale`).toBe(readFileSync(join(out, path), 'utf8'));
    }
    const folders = new Set(fresh.map((p) => p.split('/')[0]));
    const committed = [...folders].flatMap((f) => listFiles(join(SCHEMAS, f))).map((p) => relative(SCHEMAS, p)).sort();
    expect(committed, 'imported folders hold files the import no longer writes').toEqual(fresh);
    // A whole import (every group, written to disk) takes seconds on a loaded CI machine: not a timing check.
  }, 60_000);

  it('is deterministic', () => {
    const again = buildKubernetesSchemas(swagger, proto);
    expect([...again.files.entries()]).toEqual([...result!.files.entries()]);
  });

  it('reports what it had to leave out', () => {
    expect(result!.notes.warnings).toEqual([]);
    expect(result!.notes.droppedProperties).toEqual(['io.k8s.api.core.v1.NodeAllocatableResourceClaimStatus.resources']);
  });

  it('keeps strategic-merge-patch and list metadata (Pod spec.containers)', () => {
    const containers = schema('core/v1/PodSpec.json').properties.containers;
    expect(containers).toMatchObject({
      type: 'array',
      items: { $ref: './Container.json' },
      'x-kubernetes-patch-merge-key': 'name',
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    });
    expect(schema('core/v1/Pod.json').properties.spec).toMatchObject({ $ref: './PodSpec.json', 'x-kapi-field-number': 2 });
  });

  it('numbers fields from protobuf-fields.json (ConfigMap)', () => {
    const configMap = schema('core/v1/ConfigMap.json');
    expect(configMap.properties.data['x-kapi-field-number']).toBe(2);
    expect(configMap.properties.metadata).toMatchObject({ $ref: '../../meta/v1/ObjectMeta.json', 'x-kapi-field-number': 1 });
    expect(configMap.properties.apiVersion['x-kapi-field-number']).toBeUndefined();
    expect(configMap['x-kapi-protobuf']).toEqual({ message: 'k8s.io.api.core.v1.ConfigMap' });
  });

  it('derives resource headers from swagger paths and the kubectl table', () => {
    const deployment = schema('apps/v1/Deployment.json')['x-kapi-resource'];
    expect(deployment).toMatchObject({
      group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', singular: 'deployment',
      scope: 'Namespaced', shortNames: ['deploy'], categories: ['all'],
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      subresources: {
        status: {},
        scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' },
      },
    });
    const pod = schema('core/v1/Pod.json')['x-kapi-resource'];
    expect(pod.subresources.others).toContainEqual({ name: 'eviction', group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] });
    expect(pod.printerColumns.map((c: any) => c.name)).toEqual(['Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node', 'Nominated Node', 'Readiness Gates']);
    expect(schema('core/v1/Namespace.json')['x-kapi-resource']).toMatchObject({ scope: 'Cluster', verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] });
    expect(schema('authorization/v1/SubjectAccessReview.json')['x-kapi-resource']).toMatchObject({ scope: 'Cluster', verbs: ['create'] });
  });

  it('turns Go-style embedded structs into embedded messages', () => {
    const selector = schema('core/v1/ConfigMapKeySelector.json');
    expect(selector['x-kapi-protobuf'].embedded).toEqual([{ name: 'localObjectReference', number: 1, $ref: './LocalObjectReference.json' }]);
    expect(selector.properties.name['x-kapi-field-number']).toBeUndefined();
    expect(selector.properties.key['x-kapi-field-number']).toBe(2);
    expect(schema('core/v1/EphemeralContainer.json')['x-kapi-protobuf'].embedded[0].$ref).toBe('./EphemeralContainerCommon.json');
    expect(schema('core/v1/EphemeralContainerCommon.json').properties.image['x-kapi-field-number']).toBe(2);
  });

  it('writes list wrappers, special wire types and synthesized groups', () => {
    expect(schema('meta/v1/APIResource.json').properties.verbs).toMatchObject({ $ref: './Verbs.json', 'x-kapi-field-number': 4 });
    expect(schema('meta/v1/Verbs.json')).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(schema('meta/v1/Time.json')).toMatchObject({ type: 'string', format: 'date-time', 'x-kapi-wire-type': 'Time' });
    // apiextensions' free-form JSON, and the unions of JSONSchemaProps (Go marshals each as one of its fields).
    expect(schema('apiextensions/v1/JSON.json')).toEqual({
      description: expect.any(String),
      'x-kapi-wire-type': 'JSON',
      'x-kapi-protobuf': { message: 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSON' },
    });
    expect(schema('apiextensions/v1/JSONSchemaPropsOrBool.json').oneOf).toEqual([
      { type: 'boolean', 'x-kapi-field-number': 1 },
      { $ref: './JSONSchemaProps.json', 'x-kapi-field-number': 2 },
    ]);
    expect(schema('apiextensions/v1/JSONSchemaPropsOrStringArray.json').oneOf).toEqual([
      { $ref: './JSONSchemaProps.json', 'x-kapi-field-number': 1 },
      { type: 'array', items: { type: 'string' }, 'x-kapi-field-number': 2 },
    ]);
    expect(schema('apiextensions/v1/JSONSchemaProps.json').properties.$schema['x-kapi-omit-zero']).toBe(true);
    expect(schema('meta/v1/RuntimeTypeMeta.json')['x-kapi-protobuf']).toEqual({ message: 'k8s.io.apimachinery.pkg.runtime.TypeMeta' });
    expect(schema('apidiscovery/v2/APIResourceDiscovery.json').properties.responseKind).toMatchObject({
      $ref: '../../meta/v1/GroupVersionKind.json',
      'x-kapi-field-number': 2,
    });
    expect(JSON.parse(result!.files.get('meta/group.json')!)).toEqual({
      group: 'meta.k8s.io', package: '@kapi/apimachinery', directory: 'packages/apimachinery',
    });
  });

  it('lists properties in the order kube writes JSON (the upstream fixtures)', () => {
    const fixtures = join(REFERENCE, 'fixtures');
    const folderOf: Record<string, string> = {
      core: 'core', apps: 'apps', 'authorization.k8s.io': 'authorization', 'coordination.k8s.io': 'coordination',
      'rbac.authorization.k8s.io': 'rbac',
    };
    const resolve = (from: string, ref: string) => join(dirname(from), ref).split('\\').join('/');
    const misordered: string[] = [];
    const check = (value: unknown, node: any, file: string, where: string): void => {
      if (node.$ref) {
        const target = resolve(file, node.$ref);
        check(value, schema(target), target, where);
        return;
      }
      if (Array.isArray(value) && node.items) value.forEach((v, i) => check(v, node.items, file, `${where}[${i}]`));
      else if (value && typeof value === 'object' && node.properties) {
        const order = Object.keys(node.properties);
        const positions = Object.keys(value).map((k) => order.indexOf(k)).filter((i) => i >= 0);
        if (positions.some((p, i) => i > 0 && p < positions[i - 1])) misordered.push(where);
        for (const [k, v] of Object.entries(value)) if (node.properties[k]) check(v, node.properties[k], file, `${where}.${k}`);
      } else if (value && typeof value === 'object' && node.additionalProperties) {
        for (const [k, v] of Object.entries(value)) check(v, node.additionalProperties, file, `${where}.${k}`);
      }
    };
    const names = existsSync(fixtures) ? readdirSync(fixtures).filter((n) => n.endsWith('.json')) : [];
    for (const name of names) {
      const parts = name.replace(/\.json$/, '').split('.');
      const [kind, version] = [parts.pop()!, parts.pop()!];
      const file = `${folderOf[parts.join('.')]}/${version}/${kind}.json`;
      // The reference holds fixtures of every GA kind; only the kinds the importer brings in are checked here.
      if (!result!.files.has(file)) continue;
      check(JSON.parse(readFileSync(join(fixtures, name), 'utf8')), schema(file), file, name);
    }
    expect(misordered).toEqual([]);
  });

  it('never touches hand-written files and removes stale imported ones', async () => {
    const out = tempDir();
    mkdirSync(join(out, 'wardle', 'v1alpha1'), { recursive: true });
    mkdirSync(join(out, 'core', 'v1'), { recursive: true });
    writeFileSync(join(out, 'README.md'), 'hand-written\n');
    writeFileSync(join(out, 'wardle', 'v1alpha1', 'Flunder.json'), '{}\n');
    writeFileSync(join(out, 'core', 'v1', 'Gone.json'), '{}\n');
    await importKubernetes({ referenceDir: REFERENCE, schemasDir: out });
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toBe('hand-written\n');
    expect(readFileSync(join(out, 'wardle', 'v1alpha1', 'Flunder.json'), 'utf8')).toBe('{}\n');
    expect(existsSync(join(out, 'core', 'v1', 'Gone.json'))).toBe(false);
  });
});
