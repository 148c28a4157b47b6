// The Gateway API CRDs (CEL-heavy, real) compile with no error, their examples validate, and broken variants of the
// examples fail with the CRD's own message at the right field.
import { formatFieldError, type FieldError } from '@kapi/apimachinery';
import { describe, expect, it } from 'vitest';
import { applyDefaults } from '../test/defaults.js';
import { crdVersions, example, examples, type CrdVersion } from '../test/gateway-fixtures.js';
import { compileSchemaRules, type CelValidator } from './index.js';

const versions = crdVersions();
const key = (group: string, version: string, kind: string) => `${group}/${version}/${kind}`;
const compiled = new Map<string, { crd: CrdVersion; validator: CelValidator; errors: FieldError[] }>(
  versions.map((crd) => {
    const { validator, errors } = compileSchemaRules(crd.schema, { schemaPath: `spec.versions[${crd.index}].schema.openAPIV3Schema` });
    return [key(crd.group, crd.version, crd.kind), { crd, validator, errors }];
  }),
);

function countRules(s: unknown): number {
  if (!s || typeof s !== 'object') return 0;
  let n = 0;
  for (const [k, v] of Object.entries(s)) {
    if (k === 'x-kubernetes-validations' && Array.isArray(v)) n += v.length;
    else if (k !== 'default' && k !== 'enum' && k !== 'example') n += countRules(v);
  }
  return n;
}

/** Validates an object as the API server would: schema defaults first, then the CEL rules. */
function validate(obj: Record<string, unknown>, old?: Record<string, unknown>): string[] {
  const [group, version] = String(obj.apiVersion).split('/');
  const entry = compiled.get(key(group, version, String(obj.kind)));
  if (!entry) throw new Error(`no CRD for ${obj.apiVersion} ${obj.kind}`);
  const withDefaults = (o: Record<string, unknown>) => applyDefaults(entry.crd.schema, structuredClone(o));
  return entry.validator.validate(withDefaults(obj), old && withDefaults(old)).map(formatFieldError);
}

describe('Gateway API CRDs', () => {
  it('has CEL-heavy CRDs to test with', () => {
    const total = versions.reduce((n, v) => n + countRules(v.schema), 0);
    expect(versions.length).toBe(19);
    expect(total).toBe(295);
  });

  it.each(versions.map((v) => [`${v.kind} ${v.version}`, v] as const))('compiles every rule of %s', (_, v) => {
    const entry = compiled.get(key(v.group, v.version, v.kind))!;
    expect(entry.errors.map(formatFieldError)).toEqual([]);
  });

  const all = examples().filter(({ obj }) => obj.kind !== 'Namespace');
  it('has examples of every kind', () => {
    expect(new Set(all.map((e) => e.obj.kind))).toEqual(
      new Set(['BackendTLSPolicy', 'GRPCRoute', 'Gateway', 'GatewayClass', 'HTTPRoute', 'ListenerSet', 'ReferenceGrant', 'TCPRoute', 'TLSRoute', 'UDPRoute']),
    );
  });

  it.each(all.map(({ file, obj }) => [`${file} ${obj.kind}/${(obj.metadata as { name: string }).name}`, obj] as const))(
    'validates example %s with no error',
    (_, obj) => {
      expect(validate(obj)).toEqual([]);
    },
  );
});

describe('invalid variants of the examples', () => {
  it('HTTPRoute: a RegularExpression path match skips the prefix rules, a bad Exact path fails them', () => {
    const route = example('http-routing_foo-httproute.yaml', 'HTTPRoute');
    const match = (route.spec as any).rules[0].matches[0];
    match.path = { type: 'RegularExpression', value: '^/login/[0-9]+$' };
    expect(validate(route)).toEqual([]);
    match.path = { type: 'Exact', value: 'login//x#' };
    expect(validate(route)).toEqual([
      `spec.rules[0].matches[0].path: Invalid value: "object": value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']`,
      `spec.rules[0].matches[0].path: Invalid value: "object": must not contain '//' when type one of ['Exact', 'PathPrefix']`,
      `spec.rules[0].matches[0].path: Invalid value: "object": must not contain '#' when type one of ['Exact', 'PathPrefix']`,
      `spec.rules[0].matches[0].path: Invalid value: "object": must only contain valid characters (matching ^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$) for types ['Exact', 'PathPrefix']`,
    ]);
  });

  it('HTTPRoute: a path match type outside the enum fails the type rule', () => {
    const route = example('http-routing_foo-httproute.yaml', 'HTTPRoute');
    (route.spec as any).rules[0].matches[0].path = { type: 'Glob', value: '/x' };
    expect(validate(route)).toContain(`spec.rules[0].matches[0].path: Invalid value: "object": type must be one of ['Exact', 'PathPrefix', 'RegularExpression']`);
  });

  it('Gateway: a hostname on a TCP listener', () => {
    const gw = example('simple-gateway_gateway.yaml', 'Gateway');
    (gw.spec as any).listeners[0] = { name: 'tcp', protocol: 'TCP', port: 9000, hostname: 'example.com' };
    expect(validate(gw)).toEqual([`spec.listeners: Invalid value: "array": hostname must not be specified for protocols ['TCP', 'UDP']`]);
  });

  it('Gateway: duplicate listener names', () => {
    const gw = example('simple-gateway_gateway.yaml', 'Gateway');
    const listeners = (gw.spec as any).listeners;
    listeners.push({ ...listeners[0], port: 8080 });
    expect(validate(gw)).toEqual(['spec.listeners: Invalid value: "array": Listener name must be unique within the Gateway']);
  });

  it('Gateway: an HTTPS listener without TLS certificates', () => {
    const gw = example('simple-gateway_gateway.yaml', 'Gateway');
    (gw.spec as any).listeners[0] = { name: 'https', protocol: 'HTTPS', port: 443, tls: { certificateRefs: [], options: {} } };
    expect(validate(gw)).toEqual([
      'spec.listeners[0].tls: Invalid value: "object": certificateRefs or options must be specified when mode is Terminate',
    ]);
    // Without certificateRefs the rule cannot be evaluated (kube: "no such key"): reported as an evaluation error.
    (gw.spec as any).listeners[0].tls = {};
    expect(validate(gw)).toEqual([
      'spec.listeners[0].tls: Invalid value: "object": no such key: certificateRefs evaluating rule: certificateRefs or options must be specified when mode is Terminate',
    ]);
  });

  it('HTTPRoute: two parentRefs to the same parent', () => {
    const route = example('http-routing_foo-httproute.yaml', 'HTTPRoute');
    (route.spec as any).parentRefs = [{ name: 'gw' }, { name: 'gw' }];
    expect(validate(route)).toEqual([
      'spec.parentRefs: Invalid value: "array": sectionName must be unique when parentRefs includes 2 or more references to the same parent',
    ]);
    (route.spec as any).parentRefs = [{ name: 'gw', sectionName: 'http' }, { name: 'gw' }];
    expect(validate(route)).toEqual([
      'spec.parentRefs: Invalid value: "array": sectionName must be specified when parentRefs includes 2 or more references to the same parent',
    ]);
    (route.spec as any).parentRefs = [{ name: 'gw', sectionName: 'http' }, { name: 'gw', sectionName: 'https' }];
    expect(validate(route)).toEqual([]);
  });

  it('HTTPRoute: a Service backendRef without port', () => {
    const route = example('http-routing_foo-httproute.yaml', 'HTTPRoute');
    delete (route.spec as any).rules[0].backendRefs[0].port;
    expect(validate(route)).toEqual(['spec.rules[0].backendRefs[0]: Invalid value: "object": Must have port for Service reference']);
  });

  it('GatewayClass: controllerName is immutable (a transition rule), checked on update only', () => {
    const gc = examples().find((e) => e.obj.kind === 'GatewayClass')!.obj;
    const changed = structuredClone(gc);
    (changed.spec as any).controllerName = 'example.com/other-controller';
    expect(validate(changed)).toEqual([]);
    expect(validate(changed, gc)).toEqual(['spec.controllerName: Invalid value: "string": field is immutable']);
    expect(validate(gc, gc)).toEqual([]);
  });
});
