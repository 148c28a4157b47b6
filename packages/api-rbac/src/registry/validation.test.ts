import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '@kapi/apiserver';
// This package has no dependency on @kapi/storage (its tests are the only user): the built package, by path.
import { createMemoryBackend } from '@kapi/storage';
import { plugin } from './plugin.js';
import { validateClusterRole } from './validation.js';

const API = '/apis/rbac.authorization.k8s.io/v1';
const ROLES = `${API}/namespaces/ns/roles`;
const CLUSTER_ROLES = `${API}/clusterroles`;
const BINDINGS = `${API}/namespaces/ns/rolebindings`;
const CLUSTER_BINDINGS = `${API}/clusterrolebindings`;
const GROUP = 'rbac.authorization.k8s.io';
const SUBJECT_KINDS = 'supported values: "ServiceAccount", "User", "Group"';
const DNS_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_NAME =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

interface Cause {
  reason: string;
  field: string;
  message: string;
}

describe("RBAC validation (kube 1.33's pkg/apis/rbac/validation)", () => {
  let server: ApiServer;
  let n = 0;
  const req = async (method: string, path: string, body?: unknown) => {
    const headers = { 'content-type': 'application/json', accept: 'application/json' };
    const res = await server.fetch(new Request(`http://kapi.test${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }));
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const causesOf = (res: { status: number; body: any }): Cause[] => {
    expect(res.status).toBe(422);
    return res.body.details.causes;
  };
  /** The `field: message` causes of kube's 422 for creating `obj` (named afresh) at `path`. */
  const refused = async (path: string, obj: Record<string, unknown>) =>
    causesOf(await req('POST', path, { ...obj, metadata: { name: `refused-${n++}` } })).map((c) => `${c.field}: ${c.message}`);
  /** Creates `obj` (named afresh), expecting no complaint; the created object. */
  const accepted = async (path: string, obj: Record<string, unknown>) => {
    const res = await req('POST', path, { ...obj, metadata: { name: `accepted-${n++}` } });
    expect(res.body.details?.causes ?? []).toEqual([]);
    expect(res.status).toBe(201);
    return res.body;
  };

  beforeAll(async () => {
    server = createApiServer({ storage: createMemoryBackend(), plugins: [plugin] });
    await server.start();
  });
  afterAll(async () => {
    await server.stop?.();
  });

  describe('bindings: roleRef', () => {
    it('a ClusterRoleBinding without a roleRef: the defaulted API group stands, kind and name are judged (not the schema\'s "roleRef: Required value")', async () => {
      const res = await req('POST', CLUSTER_BINDINGS, { metadata: { name: 'crb' }, subjects: [{ kind: 'User', name: 'x' }] });
      expect(causesOf(res)).toEqual([
        { reason: 'FieldValueNotSupported', field: 'roleRef.kind', message: 'Unsupported value: "": supported values: "ClusterRole"' },
        { reason: 'FieldValueRequired', field: 'roleRef.name', message: 'Required value' },
      ]);
      expect(res.body.message).toBe(
        'ClusterRoleBinding.rbac.authorization.k8s.io "crb" is invalid: [roleRef.kind: Unsupported value: "": supported values: "ClusterRole", roleRef.name: Required value]',
      );
    });

    it('a RoleBinding with an empty roleRef: the same, Role and ClusterRole both supported', async () => {
      expect(await refused(BINDINGS, { roleRef: {}, subjects: [] })).toEqual([
        'roleRef.kind: Unsupported value: "": supported values: "Role", "ClusterRole"',
        'roleRef.name: Required value',
      ]);
    });

    it('another API group, a kind that is no RBAC role, a name that is no path segment', async () => {
      expect(await refused(CLUSTER_BINDINGS, { roleRef: { apiGroup: 'example.com', kind: 'Role', name: 'a/b%c' } })).toEqual([
        `roleRef.apiGroup: Unsupported value: "example.com": supported values: "${GROUP}"`,
        'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
        `roleRef.name: Invalid value: "a/b%c": may not contain '/'`,
        `roleRef.name: Invalid value: "a/b%c": may not contain '%'`,
      ]);
      // The objects' own names follow the same rule (ValidateRBACName), every broken part named.
      const named = await req('POST', CLUSTER_ROLES, { metadata: { name: 'a/b%c' }, rules: [] });
      expect(causesOf(named).map((c) => `${c.field}: ${c.message}`)).toEqual([
        `metadata.name: Invalid value: "a/b%c": may not contain '/'`,
        `metadata.name: Invalid value: "a/b%c": may not contain '%'`,
      ]);
      expect(await refused(BINDINGS, { roleRef: { apiGroup: GROUP, kind: 'Secret', name: '..' } })).toEqual([
        'roleRef.kind: Unsupported value: "Secret": supported values: "Role", "ClusterRole"',
        `roleRef.name: Invalid value: "..": may not be '..'`,
      ]);
    });
  });

  describe('bindings: subjects', () => {
    const roleRef = { apiGroup: GROUP, kind: 'ClusterRole', name: 'view' };

    it('in a ClusterRoleBinding: a service account names its namespace, is a DNS subdomain in the core group; users and groups are RBAC\'s; no other kind', async () => {
      expect(
        await refused(CLUSTER_BINDINGS, {
          roleRef,
          subjects: [
            { kind: 'ServiceAccount', name: 'sa' },
            { kind: 'ServiceAccount', name: 'Bad_Name', namespace: 'ns', apiGroup: GROUP },
            { kind: 'User', name: 'u', apiGroup: 'example.com' },
            { kind: 'Group', name: 'g', apiGroup: 'v1' },
            { kind: 'Robot', name: 'r' },
            { name: 'nobody' },
            { kind: 'User' },
            {},
          ],
        }),
      ).toEqual([
        'subjects[0].namespace: Required value',
        `subjects[1].name: Invalid value: "Bad_Name": ${DNS_SUBDOMAIN}`,
        `subjects[1].apiGroup: Unsupported value: "${GROUP}": supported values: ""`,
        `subjects[2].apiGroup: Unsupported value: "example.com": supported values: "${GROUP}"`,
        `subjects[3].apiGroup: Unsupported value: "v1": supported values: "${GROUP}"`,
        `subjects[4].kind: Unsupported value: "Robot": ${SUBJECT_KINDS}`,
        `subjects[5].kind: Unsupported value: "": ${SUBJECT_KINDS}`,
        'subjects[6].name: Required value',
        'subjects[7].name: Required value',
        `subjects[7].kind: Unsupported value: "": ${SUBJECT_KINDS}`,
      ]);
    });

    it('in a RoleBinding a service account needs no namespace; its other rules are the same', async () => {
      expect(
        await refused(BINDINGS, {
          roleRef,
          subjects: [
            { kind: 'ServiceAccount', name: 'sa' },
            { kind: 'ServiceAccount', name: 'sa', apiGroup: 'v1' },
            { kind: 'Group', name: '' },
          ],
        }),
      ).toEqual([`subjects[1].apiGroup: Unsupported value: "v1": supported values: ""`, 'subjects[2].name: Required value']);
    });

    it('the error types kube reports', async () => {
      const res = await req('POST', CLUSTER_BINDINGS, {
        metadata: { name: 'types' },
        roleRef: { kind: 'ClusterRole', name: 'x/y' },
        subjects: [{ kind: 'ServiceAccount', name: 'UPPER' }, {}],
      });
      expect(causesOf(res).map((c) => `${c.reason} ${c.field}`)).toEqual([
        'FieldValueInvalid roleRef.name',
        'FieldValueInvalid subjects[0].name',
        'FieldValueRequired subjects[0].namespace',
        'FieldValueRequired subjects[1].name',
        'FieldValueNotSupported subjects[1].kind',
      ]);
    });

    it('valid bindings are created, with kube\'s defaults (roleRef and user/group API groups)', async () => {
      const crb = await accepted(CLUSTER_BINDINGS, {
        roleRef: { kind: 'ClusterRole', name: 'view' },
        subjects: [
          { kind: 'ServiceAccount', name: 'sa', namespace: 'ns' },
          { kind: 'User', name: 'jane@example.com' },
          { kind: 'Group', name: 'system:authenticated', apiGroup: GROUP },
        ],
      });
      expect(crb.roleRef).toEqual({ apiGroup: GROUP, kind: 'ClusterRole', name: 'view' });
      expect(crb.subjects).toEqual([
        { kind: 'ServiceAccount', name: 'sa', namespace: 'ns' },
        { kind: 'User', apiGroup: GROUP, name: 'jane@example.com' },
        { kind: 'Group', apiGroup: GROUP, name: 'system:authenticated' },
      ]);
      const rb = await accepted(BINDINGS, { roleRef: { apiGroup: GROUP, kind: 'Role', name: 'reader' }, subjects: [{ kind: 'ServiceAccount', name: 'default' }] });
      expect(rb.roleRef).toEqual({ apiGroup: GROUP, kind: 'Role', name: 'reader' });
      await accepted(BINDINGS, { roleRef: { kind: 'ClusterRole', name: 'edit' } });
    });
  });

  describe('roles: policy rules', () => {
    it('a rule without verbs, API groups or resources (not the schema\'s "verbs: Required value")', async () => {
      expect(await refused(ROLES, { rules: [{}] })).toEqual([
        'rules[0].verbs: Required value: verbs must contain at least one value',
        'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
        'rules[0].resources: Required value: resource rules must supply at least one resource',
      ]);
      expect(await refused(CLUSTER_ROLES, { rules: [{ verbs: [], apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], resources: ['pods'] }] })).toEqual([
        'rules[0].verbs: Required value: verbs must contain at least one value',
        'rules[1].apiGroups: Required value: resource rules must supply at least one api group',
      ]);
    });

    it('non-resource URLs: never in a namespaced Role, never beside resources, API groups or resource names', async () => {
      expect(await refused(ROLES, { rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/version'], resources: ['pods'] }, { verbs: ['get'], nonResourceURLs: ['/metrics'] }] })).toEqual([
        'rules[0].nonResourceURLs: Invalid value: []string{"/healthz", "/version"}: namespaced rules cannot apply to non-resource URLs',
        'rules[0].nonResourceURLs: Invalid value: []string{"/healthz", "/version"}: rules cannot apply to both regular resources and non-resource URLs',
        'rules[1].nonResourceURLs: Invalid value: []string{"/metrics"}: namespaced rules cannot apply to non-resource URLs',
      ]);
      expect(
        await refused(CLUSTER_ROLES, {
          rules: [
            { verbs: ['get'], nonResourceURLs: ['/healthz'], resourceNames: ['x'] },
            { nonResourceURLs: ['/api/*'], apiGroups: [''] },
          ],
        }),
      ).toEqual([
        'rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: rules cannot apply to both regular resources and non-resource URLs',
        'rules[1].verbs: Required value: verbs must contain at least one value',
        'rules[1].nonResourceURLs: Invalid value: []string{"/api/*"}: rules cannot apply to both regular resources and non-resource URLs',
      ]);
    });

    it('valid roles are created: resource rules (names with several resources too), non-resource rules in ClusterRoles, no rules', async () => {
      await accepted(ROLES, { rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'secrets'], resourceNames: ['a'] }] });
      await accepted(ROLES, {});
      await accepted(CLUSTER_ROLES, { rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/version/*'] }, { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] });
    });
  });

  describe('ClusterRoles: aggregation rules', () => {
    it('an aggregationRule needs a selector', async () => {
      expect(await refused(CLUSTER_ROLES, { aggregationRule: {} })).toEqual([
        'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
      ]);
      expect(await refused(CLUSTER_ROLES, { aggregationRule: { clusterRoleSelectors: [] } })).toEqual([
        'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
      ]);
    });

    it("each selector is a valid label selector; one kube's LabelSelectorAsSelector refuses also gets `Invalid value: \"null\": invalid label selector.`", async () => {
      expect(
        await refused(CLUSTER_ROLES, {
          rules: [{ apiGroups: [''], resources: ['pods'] }],
          aggregationRule: {
            clusterRoleSelectors: [
              { matchLabels: { 'rbac.example.com/aggregate-to-view': 'true' } },
              { matchExpressions: [{}] },
              { matchExpressions: [{ key: 'tier', operator: 'In' }, { key: 'tier', operator: 'Exists', values: ['a'] }] },
              { matchLabels: { 'bad key': 'bad value' } },
            ],
          },
        }),
      ).toEqual([
        'rules[0].verbs: Required value: verbs must contain at least one value',
        'aggregationRule.clusterRoleSelectors[1].matchExpressions[0].operator: Invalid value: "": not a valid selector operator',
        'aggregationRule.clusterRoleSelectors[1].matchExpressions[0].key: Invalid value: "": name part must be non-empty',
        `aggregationRule.clusterRoleSelectors[1].matchExpressions[0].key: Invalid value: "": ${LABEL_NAME}`,
        'aggregationRule.clusterRoleSelectors[1]: Invalid value: "null": invalid label selector.',
        "aggregationRule.clusterRoleSelectors[2].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
        "aggregationRule.clusterRoleSelectors[2].matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        'aggregationRule.clusterRoleSelectors[2]: Invalid value: "null": invalid label selector.',
        `aggregationRule.clusterRoleSelectors[3].matchLabels: Invalid value: "bad key": ${LABEL_NAME}`,
        `aggregationRule.clusterRoleSelectors[3].matchLabels: Invalid value: "bad value": ${LABEL_VALUE}`,
        'aggregationRule.clusterRoleSelectors[3]: Invalid value: "null": invalid label selector.',
      ]);
    });

    it('an aggregated ClusterRole is created', async () => {
      await accepted(CLUSTER_ROLES, {
        aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-view': 'true' } }, { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }] }] },
      });
    });

    it('on update, invalid label values are let through when the stored ClusterRole had an invalid selector (LabelSelectorAsSelector still refuses them)', () => {
      const role = { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { tier: 'not valid' } }] } };
      expect(validateClusterRole(role, { allowInvalidLabelValueInSelector: true }).map((e) => [e.field, e.type, e.badValue, e.message])).toEqual([
        ['aggregationRule.clusterRoleSelectors[0].matchLabels', 'FieldValueInvalid', 'not valid', LABEL_VALUE],
        ['aggregationRule.clusterRoleSelectors[0]', 'FieldValueInvalid', null, 'invalid label selector.'],
      ]);
    });
  });

  describe('updates', () => {
    it("kube's update strategies validate the new object twice (Validate<Kind> then Validate<Kind>Update): each error twice, the message once", async () => {
      await req('POST', ROLES, { metadata: { name: 'twice' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] });
      const res = await req('PUT', `${ROLES}/twice`, { metadata: { name: 'twice' }, rules: [{ verbs: ['get'], apiGroups: [''] }] });
      expect(causesOf(res).map((c) => `${c.field}: ${c.message}`)).toEqual([
        'rules[0].resources: Required value: resource rules must supply at least one resource',
        'rules[0].resources: Required value: resource rules must supply at least one resource',
      ]);
      expect(res.body.message).toBe('Role.rbac.authorization.k8s.io "twice" is invalid: rules[0].resources: Required value: resource rules must supply at least one resource');

      await req('POST', CLUSTER_ROLES, { metadata: { name: 'twice' } });
      const cr = await req('PUT', `${CLUSTER_ROLES}/twice`, { metadata: { name: 'twice' }, aggregationRule: {} });
      expect(causesOf(cr).map((c) => c.field)).toEqual(['aggregationRule.clusterRoleSelectors', 'aggregationRule.clusterRoleSelectors']);
    });

    it('a binding: its errors twice, then the changed roleRef, printed as Go prints the new rbac.RoleRef', async () => {
      const created = await req('POST', CLUSTER_BINDINGS, { metadata: { name: 'upd' }, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'u' }] });
      expect(created.status).toBe(201);
      const res = await req('PUT', `${CLUSTER_BINDINGS}/upd`, { metadata: { name: 'upd' }, roleRef: { kind: 'ClusterRole', name: 'edit' }, subjects: [{ kind: 'ServiceAccount', name: 'sa' }] });
      expect(causesOf(res)).toEqual([
        { reason: 'FieldValueRequired', field: 'subjects[0].namespace', message: 'Required value' },
        { reason: 'FieldValueRequired', field: 'subjects[0].namespace', message: 'Required value' },
        { reason: 'FieldValueInvalid', field: 'roleRef', message: `Invalid value: rbac.RoleRef{APIGroup:"${GROUP}", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef` },
      ]);
      // A roleRef sent without its API group is the same roleRef once defaulted; the subjects may change.
      const ok = await req('PUT', `${CLUSTER_BINDINGS}/upd`, { metadata: { name: 'upd' }, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'Group', name: 'g' }] });
      expect(ok.status).toBe(200);
    });

    it('a RoleBinding update that drops the roleRef: the missing kind and name (twice), then the change', async () => {
      await req('POST', BINDINGS, { metadata: { name: 'drop' }, roleRef: { kind: 'Role', name: 'r' } });
      const res = await req('PUT', `${BINDINGS}/drop`, { metadata: { name: 'drop' } });
      expect(causesOf(res).map((c) => `${c.field}: ${c.message}`)).toEqual([
        'roleRef.kind: Unsupported value: "": supported values: "Role", "ClusterRole"',
        'roleRef.name: Required value',
        'roleRef.kind: Unsupported value: "": supported values: "Role", "ClusterRole"',
        'roleRef.name: Required value',
        `roleRef: Invalid value: rbac.RoleRef{APIGroup:"${GROUP}", Kind:"", Name:""}: cannot change roleRef`,
      ]);
    });
  });
});
