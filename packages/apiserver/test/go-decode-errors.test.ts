// A value of the wrong type in a built-in object is refused as kube's JSON decoder refuses it (400), in Go's words:
// the struct holding the field, the field's path without list indexes or map keys, and the Go type it decodes into
// (`json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container`); the types
// that decode themselves (IntOrString, Time, Quantity) with their own errors.
import { beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

const PODS = '/api/v1/namespaces/default/pods';
const pod = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', ...metadata },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
});
const container = (fields: Record<string, unknown>) => ({ containers: [{ name: 'c', image: 'nginx', ...fields }] });
const podError = (message: string) => `Pod in version "v1" cannot be handled as a Pod: ${message}`;

describe("wrong types, in Go's decoder's words", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });

  const refused = async (path: string, body: unknown) => {
    const res = await h.req('POST', path, body);
    expect(res.status).toBe(400);
    expect(res.body.reason).toBe('BadRequest');
    return res.body.message as string;
  };

  it('names the struct, the path without indexes and the Go type', async () => {
    expect(await refused(PODS, pod({ containers: { name: 'c', image: 'nginx' } }))).toBe(
      podError('json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container'),
    );
    expect(await refused(PODS, pod(container({ env: [{ name: 'A', value: 1 }] })))).toBe(
      podError('json: cannot unmarshal number into Go struct field EnvVar.spec.containers.env.value of type string'),
    );
    expect(await refused(PODS, pod(container({ args: ['a', 2] })))).toBe(
      podError('json: cannot unmarshal number into Go struct field Container.spec.containers.args of type string'),
    );
    expect(await refused(PODS, pod({ hostNetwork: 'yes' }))).toBe(podError('json: cannot unmarshal string into Go struct field PodSpec.spec.hostNetwork of type bool'));
    expect(await refused(PODS, pod({ terminationGracePeriodSeconds: 'x' }))).toBe(
      podError('json: cannot unmarshal string into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64'),
    );
    expect(await refused(PODS, pod(container({ ports: [{ containerPort: 80.5 }] })))).toBe(
      podError('json: cannot unmarshal number 80.5 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32'),
    );
    expect(await refused(PODS, pod({ nodeSelector: { disk: true } }))).toBe(podError('json: cannot unmarshal bool into Go struct field PodSpec.spec.nodeSelector of type string'));
  });

  it('stops at a map key, dots and all, and at a struct given as something else', async () => {
    expect(await refused(PODS, pod({}, { labels: { 'app.kubernetes.io/name': 1 } }))).toBe(
      podError('json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string'),
    );
    // Keys a hostile client picks end the path at the map alike.
    for (const key of ['constructor', '__proto__', 'a[0]', 'b.c[x']) {
      const body = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{${JSON.stringify(key)}:1}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}`;
      expect(await refused(PODS, body)).toBe(podError('json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string'));
    }
    expect(await refused(PODS, { apiVersion: 'v1', kind: 'Pod', metadata: ['p'] })).toBe(podError('json: cannot unmarshal array into Go struct field Pod.metadata of type v1.ObjectMeta'));
    expect(await refused(PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: 'run nginx' })).toBe(
      podError('json: cannot unmarshal string into Go struct field Pod.spec of type v1.PodSpec'),
    );
    expect(await refused('/api/v1/namespaces/default/secrets', { metadata: { name: 's' }, data: { key: 5 } })).toBe(
      'Secret in version "v1" cannot be handled as a Secret: json: cannot unmarshal number into Go struct field Secret.data of type []uint8',
    );
    expect(await refused('/apis/apps/v1/namespaces/default/deployments', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: '3' } })).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
  });

  it('gives the errors of the types that decode themselves', async () => {
    expect(await refused(PODS, pod(container({ resources: { limits: { cpu: true } } })))).toBe(
      podError("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
    );
    expect(await refused(PODS, pod(container({ livenessProbe: { httpGet: { port: false } } })))).toBe(podError('json: cannot unmarshal bool into Go value of type int32'));
    expect(await refused(PODS, pod({}, { creationTimestamp: 1700000000 }))).toBe(podError('json: cannot unmarshal number into Go value of type string'));
  });
});
