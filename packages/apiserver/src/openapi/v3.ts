import type { GroupDefinition, ResourceInfo } from '@kapi/apimachinery';
import {
  CREATE, DELETE, DELETE_COLLECTION, LIST, P, PATCH, UPDATE, nameParam, proxyPathQuery, sortParameters, type Parameter,
} from './parameters.js';
import { META, VERSION_INFO, ref, schemaPool, type GroupVersionKind, type Schema, type SchemaPool } from './schemas.js';

/** An OpenAPI 3.0 document as kube-apiserver serves one per group-version at /openapi/v3/<path>. */
export interface OpenAPIV3Document {
  openapi: '3.0.0';
  info: { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, unknown> };
}

export interface OpenAPIOptions {
  /** `info.version`: kube-apiserver writes its git version. */
  version?: string;
}

export const DEFAULT_INFO_VERSION = 'v1.33.0';

type Operation = Record<string, unknown>;
type PathItem = Record<string, unknown>;

const OBJECT_TYPES = ['application/json', 'application/vnd.kubernetes.protobuf', 'application/yaml'];
const STREAM_TYPES = [...OBJECT_TYPES, 'application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch'];
const PATCH_TYPES = [
  'application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json',
];
/** Kinds of groups without strategic merge patch (custom resources, groups from `schemas/`) accept the others. */
const NON_STRATEGIC_PATCH_TYPES = PATCH_TYPES.filter((t) => t !== 'application/strategic-merge-patch+json');
const ANY = ['*/*'];
const STRING: Schema = { type: 'string' };

const sortedKeys = <T extends Record<string, unknown>>(obj: T): T =>
  Object.fromEntries(Object.keys(obj).sort().map((k) => [k, obj[k]])) as T;

const content = (types: string[], schema: Schema) => sortedKeys(Object.fromEntries(types.map((t) => [t, { schema }])));
const response = (description: string, types: string[], schema: Schema) => ({ content: content(types, schema), description });
const ok = (types: string[], schema: Schema) => ({ '200': response('OK', types, schema) });
const written = (schema: Schema, accepted: boolean) => ({
  '200': response('OK', OBJECT_TYPES, schema),
  '201': response('Created', OBJECT_TYPES, schema),
  ...(accepted ? { '202': response('Accepted', OBJECT_TYPES, schema) } : {}),
});

interface OperationSpec {
  id: string;
  description: string;
  tag: string;
  action?: string;
  gvk?: GroupVersionKind;
  params?: Parameter[];
  body?: { types: string[]; schema: Schema; required: boolean };
  responses: Record<string, unknown>;
}

function operation(spec: OperationSpec): Operation {
  const op: Operation = { description: spec.description, operationId: spec.id, tags: [spec.tag] };
  if (spec.params?.length) op.parameters = sortParameters(spec.params);
  if (spec.body) op.requestBody = { content: content(spec.body.types, spec.body.schema), ...(spec.body.required ? { required: true } : {}) };
  op.responses = { ...spec.responses, '401': { description: 'Unauthorized' } };
  if (spec.action) op['x-kubernetes-action'] = spec.action;
  if (spec.gvk) op['x-kubernetes-group-version-kind'] = sortedKeys({ ...spec.gvk });
  return sortedKeys(op);
}

/**
 * kube's operation-ID segment for a path element (k8s.io/apiserver ToValidOperationID): letters, `_` and inner
 * digits are kept, anything else starts a capitalized word.
 */
export function toValidOperationID(s: string, capitalizeFirst: boolean): string {
  let out = '';
  let capitalize = capitalizeFirst;
  [...s].forEach((ch, i) => {
    if (/\p{L}/u.test(ch) || ch === '_' || (i !== 0 && /\d/.test(ch))) {
      out += capitalize ? ch.toUpperCase() : ch;
      capitalize = false;
    } else {
      capitalize = true;
    }
  });
  return out;
}

/** The `/openapi/v3/<path>` key of a group-version: `api/v1`, `apis/apps/v1`. */
export const groupVersionPath = (group: string, version: string): string => (group ? `apis/${group}/${version}` : `api/${version}`);

const groupSegment = (group: string) => (group ? group.replace(/\.k8s\.io$/, '') : 'core');
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Operation IDs and tags of one group-version, as kube derives them from the path. */
function naming(group: string, version: string) {
  const g = groupSegment(group);
  return {
    prefix: toValidOperationID(g, true) + toValidOperationID(version, true),
    tag: `${toValidOperationID(g, false)}_${toValidOperationID(version, false)}`,
  };
}

const CONNECT_PARAMS: Record<string, Parameter[]> = {
  attach: [P.containerAttach, P.stderrAttach, P.stdinAttach, P.stdoutAttach, P.ttyAttach],
  exec: [P.command, P.containerExec, P.stderrExec, P.stdinExec, P.stdoutExec, P.ttyExec],
  portforward: [P.ports],
  proxy: [],
};
const LOG_PARAMS = [
  P.containerLog, P.follow, P.insecureSkipTLSVerifyBackend, P.limitBytes, P.previous, P.sinceSeconds, P.stream, P.tailLines, P.timestamps,
];
const CONNECT_METHODS: [verb: string, method: string][] = [
  ['delete', 'delete'], ['get', 'get'], ['get', 'head'], ['get', 'options'], ['patch', 'patch'], ['create', 'post'], ['update', 'put'],
];

/** The paths one resource contributes to its group-version document. */
function resourcePaths(r: ResourceInfo, pool: SchemaPool, paths: Record<string, PathItem>, strategic: boolean): void {
  const { prefix, tag } = naming(r.group, r.version);
  // kubectl picks strategic merge patch for a kind whose PATCH lists it (client-side apply, diff, edit).
  const patchTypes = strategic ? PATCH_TYPES : NON_STRATEGIC_PATCH_TYPES;
  const namespaced = r.scope === 'Namespaced';
  const NS = namespaced ? 'Namespaced' : '';
  const base = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  const scope = namespaced ? `namespaces/{namespace}/` : '';
  const collection = `${base}/${scope}${r.plural}`;
  const item = `${collection}/{name}`;
  const gvk: GroupVersionKind = { group: r.group, kind: r.kind, version: r.version };
  const names = pool.kindNames(r);
  const kind = ref(names.kind);
  const verbs = new Set<string>(r.verbs);
  const scopeParams = namespaced ? [P.namespace] : [];
  const itemParams = [nameParam(r.kind), ...scopeParams, P.pretty];
  const status = ref(`${META}Status`);
  const deleteBody = { types: ANY, schema: ref(`${META}DeleteOptions`), required: false };
  const watchEvent = ref(`${META}WatchEvent`);
  const add = (path: string, params: Parameter[], ops: Record<string, Operation | undefined>) => {
    const defined = Object.fromEntries(Object.entries(ops).filter(([, op]) => op)) as Record<string, Operation>;
    if (!Object.keys(defined).length) return;
    paths[path] = sortedKeys({ ...defined, parameters: sortParameters(params) });
  };
  const op = (spec: Omit<OperationSpec, 'tag'>) => operation({ ...spec, tag });

  add(collection, [...scopeParams, P.pretty], {
    get: verbs.has('list') ? op({
      id: `list${prefix}${NS}${r.kind}`, description: `list or watch objects of kind ${r.kind}`, action: 'list', gvk,
      params: LIST, responses: ok(STREAM_TYPES, ref(names.list)),
    }) : undefined,
    post: verbs.has('create') ? op({
      id: `create${prefix}${NS}${r.kind}`, description: `create a ${r.kind}`, action: 'post', gvk, params: CREATE,
      body: { types: ANY, schema: kind, required: true }, responses: written(kind, true),
    }) : undefined,
    delete: verbs.has('deletecollection') ? op({
      id: `delete${prefix}Collection${NS}${r.kind}`, description: `delete collection of ${r.kind}`, action: 'deletecollection', gvk,
      params: DELETE_COLLECTION, body: deleteBody, responses: ok(OBJECT_TYPES, status),
    }) : undefined,
  });
  add(item, itemParams, {
    get: verbs.has('get') ? op({
      id: `read${prefix}${NS}${r.kind}`, description: `read the specified ${r.kind}`, action: 'get', gvk, responses: ok(OBJECT_TYPES, kind),
    }) : undefined,
    put: verbs.has('update') ? op({
      id: `replace${prefix}${NS}${r.kind}`, description: `replace the specified ${r.kind}`, action: 'put', gvk, params: UPDATE,
      body: { types: ANY, schema: kind, required: true }, responses: written(kind, false),
    }) : undefined,
    patch: verbs.has('patch') ? op({
      id: `patch${prefix}${NS}${r.kind}`, description: `partially update the specified ${r.kind}`, action: 'patch', gvk, params: PATCH,
      body: { types: patchTypes, schema: ref(`${META}Patch`), required: true }, responses: written(kind, false),
    }) : undefined,
    delete: verbs.has('delete') ? op({
      id: `delete${prefix}${NS}${r.kind}`, description: `delete a ${r.kind}`, action: 'delete', gvk, params: DELETE,
      body: deleteBody, responses: { '200': response('OK', OBJECT_TYPES, status), '202': response('Accepted', OBJECT_TYPES, status) },
    }) : undefined,
  });
  if (namespaced && verbs.has('list')) {
    add(`${base}/${r.plural}`, [...LIST, P.pretty], {
      get: op({
        id: `list${prefix}${r.kind}ForAllNamespaces`, description: `list or watch objects of kind ${r.kind}`, action: 'list', gvk,
        responses: ok(STREAM_TYPES, ref(names.list)),
      }),
    });
  }
  if (verbs.has('watch')) {
    const watchList = (path: string, id: string, params: Parameter[]) =>
      add(path, [...LIST, ...params, P.pretty], {
        get: op({
          id, action: 'watchlist', gvk, responses: ok(STREAM_TYPES, watchEvent),
          description: `watch individual changes to a list of ${r.kind}. deprecated: use the 'watch' parameter with a list operation instead.`,
        }),
      });
    watchList(`${base}/watch/${scope}${r.plural}`, `watch${prefix}${NS}${r.kind}List`, scopeParams);
    if (namespaced) watchList(`${base}/watch/${r.plural}`, `watch${prefix}${r.kind}ListForAllNamespaces`, []);
    add(`${base}/watch/${scope}${r.plural}/{name}`, [...LIST, ...itemParams], {
      get: op({
        id: `watch${prefix}${NS}${r.kind}`, action: 'watch', gvk, responses: ok(STREAM_TYPES, watchEvent),
        description: `watch changes to an object of kind ${r.kind}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter.`,
      }),
    });
  }

  /** get/put/patch/post of a subresource whose body is `schema` (status, scale, eviction, ...). */
  const subresource = (name: string, subVerbs: string[], subGVK: GroupVersionKind, schema: Schema) => {
    const Sub = toValidOperationID(name, true);
    const has = (v: string) => subVerbs.includes(v);
    add(`${item}/${name}`, [nameParam(subGVK.kind), ...scopeParams, P.pretty], {
      get: has('get') ? op({
        id: `read${prefix}${NS}${r.kind}${Sub}`, description: `read ${name} of the specified ${r.kind}`, action: 'get', gvk: subGVK,
        responses: ok(OBJECT_TYPES, schema),
      }) : undefined,
      put: has('update') ? op({
        id: `replace${prefix}${NS}${r.kind}${Sub}`, description: `replace ${name} of the specified ${r.kind}`, action: 'put', gvk: subGVK,
        params: UPDATE, body: { types: ANY, schema, required: true }, responses: written(schema, false),
      }) : undefined,
      patch: has('patch') ? op({
        id: `patch${prefix}${NS}${r.kind}${Sub}`, description: `partially update ${name} of the specified ${r.kind}`, action: 'patch',
        gvk: subGVK, params: PATCH, body: { types: patchTypes, schema: ref(`${META}Patch`), required: true }, responses: written(schema, false),
      }) : undefined,
      post: has('create') ? op({
        id: `create${prefix}${NS}${r.kind}${Sub}`, description: `create ${name} of a ${r.kind}`, action: 'post', gvk: subGVK,
        params: CREATE, body: { types: ANY, schema, required: true }, responses: written(schema, true),
      }) : undefined,
    });
  };
  const parentVerbs = ['get', 'update', 'patch'].filter((v) => verbs.has(v));
  const subs = r.subresources ?? {};
  if (subs.status) subresource('status', parentVerbs, gvk, kind);
  if (subs.scale) {
    const scaleGVK = { group: 'autoscaling', kind: 'Scale', version: 'v1' };
    const scale = pool.nameOf(scaleGVK);
    if (scale) subresource('scale', parentVerbs, scaleGVK, ref(scale));
  }
  for (const other of subs.others ?? []) {
    const subGVK = { group: other.group ?? r.group, kind: other.kind ?? r.kind, version: other.version ?? r.version };
    const Sub = toValidOperationID(other.name, true);
    if (other.name in CONNECT_PARAMS) {
      // Streaming subresources: kube documents them as `connect` actions answering a plain string.
      const connect = (suffix: string, pathParams: Parameter[]) => {
        const ops: Record<string, Operation | undefined> = {};
        for (const [verb, method] of CONNECT_METHODS) {
          if (!other.verbs.includes(verb as never) || (method === 'head' || method === 'options') && other.name !== 'proxy') continue;
          const Method = capitalize(method);
          ops[method] = op({
            id: `connect${prefix}${Method}${NS}${r.kind}${Sub}${suffix}`, description: `connect ${method.toUpperCase()} requests to ${other.name} of ${r.kind}`,
            action: 'connect', gvk: subGVK, responses: ok(ANY, STRING),
          });
        }
        add(`${item}/${other.name}${suffix ? '/{path}' : ''}`, [nameParam(subGVK.kind), ...scopeParams, ...pathParams], ops);
      };
      connect('', other.name === 'proxy' ? [proxyPathQuery(r.kind)] : CONNECT_PARAMS[other.name]);
      if (other.name === 'proxy') connect('WithPath', [P.pathPathParam, proxyPathQuery(r.kind)]);
    } else if (other.name === 'log') {
      add(`${item}/log`, [nameParam(r.kind), ...scopeParams, ...LOG_PARAMS, P.pretty], {
        get: op({
          id: `read${prefix}${NS}${r.kind}Log`, description: `read log of the specified ${r.kind}`, action: 'get', gvk: subGVK,
          responses: ok(ANY, STRING),
        }),
      });
    } else {
      const name = subGVK.group === r.group && subGVK.version === r.version && subGVK.kind === r.kind ? names.kind : pool.nameOf(subGVK);
      if (name) subresource(other.name, other.verbs, subGVK, ref(name));
    }
  }
}

interface Served {
  group: string;
  versions: Map<string, ResourceInfo[]>;
}

/** Installed groups by name (a group split over packages is merged), in a stable order: core first, then by name. */
function servedGroups(groups: readonly GroupDefinition[]): Served[] {
  const byName = new Map<string, Served>();
  for (const def of groups) {
    const served = byName.get(def.group) ?? { group: def.group, versions: new Map() };
    byName.set(def.group, served);
    for (const r of def.resources) served.versions.set(r.version, [...(served.versions.get(r.version) ?? []), r]);
    for (const v of def.versions) if (!served.versions.has(v)) served.versions.set(v, []);
  }
  return [...byName.values()].sort((a, b) => (a.group === '' ? -1 : b.group === '' ? 1 : a.group < b.group ? -1 : 1));
}

const SECURITY_SCHEMES = {
  BearerToken: { description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' },
};

/**
 * Every OpenAPI v3 document kube-apiserver would serve for these groups, by `/openapi/v3/<key>`: `api`, `api/v1`,
 * `apis`, `apis/<group>`, `apis/<group>/<version>` and `version`. Pure: the same groups give the same documents.
 */
export function buildOpenAPIV3Documents(groups: readonly GroupDefinition[], options: OpenAPIOptions = {}): Map<string, OpenAPIV3Document> {
  const pool = schemaPool(groups);
  const strategic = new Set(groups.filter((g) => g.strategicMergePatch).flatMap((g) => g.resources));
  const info = { title: 'Kubernetes', version: options.version ?? DEFAULT_INFO_VERSION };
  const docs = new Map<string, OpenAPIV3Document>();
  const document = (key: string, paths: Record<string, PathItem>) => {
    const roots = new Set<string>();
    const collect = (value: unknown) => {
      if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) {
          if (k === '$ref' && typeof v === 'string') roots.add(v.slice(v.lastIndexOf('/') + 1));
          else collect(v);
        }
      }
    };
    collect(paths);
    docs.set(key, {
      components: { schemas: pool.closure(roots), securitySchemes: SECURITY_SCHEMES },
      info,
      openapi: '3.0.0',
      paths: sortedKeys(paths),
    });
  };
  const discovery = (path: string, id: string, description: string, tag: string, schema: string, types = OBJECT_TYPES) => ({
    [path]: { get: operation({ id, description, tag, responses: ok(types, ref(schema)) }) },
  });

  const served = servedGroups(groups);
  document('api', discovery('/api/', 'getCoreAPIVersions', 'get available API versions', 'core', `${META}APIVersions`));
  document('apis', discovery('/apis/', 'getAPIVersions', 'get available API versions', 'apis', `${META}APIGroupList`));
  for (const { group, versions } of served) {
    const g = groupSegment(group);
    if (group) {
      document(`apis/${group}`, discovery(`/apis/${group}/`, `get${toValidOperationID(g, true)}APIGroup`, 'get information of a group',
        toValidOperationID(g, false), `${META}APIGroup`));
    }
    for (const [version, resources] of [...versions].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const { prefix, tag } = naming(group, version);
      const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
      const paths = discovery(`${base}/`, `get${prefix}APIResources`, 'get available resources', tag, `${META}APIResourceList`);
      for (const r of [...resources].sort((a, b) => (a.plural < b.plural ? -1 : 1))) resourcePaths(r, pool, paths, strategic.has(r));
      document(groupVersionPath(group, version), paths);
    }
  }
  document('version', discovery('/version/', 'getCodeVersion', 'get the version information for this server', 'version', VERSION_INFO, ['application/json']));
  return docs;
}
