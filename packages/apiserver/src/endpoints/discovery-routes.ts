// GET /api, /apis, /api/v1, /apis/GROUP and /apis/GROUP/VERSION: kube's discovery documents, aggregated
// (apidiscovery.k8s.io/v2) on /api and /apis when the client asks for it, unaggregated otherwise.
import { createHash } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { parseMediaTypes } from './negotiate.js';
import { newPathNotFound, StatusError, type GroupDefinition } from '@kapi/apimachinery';
import {
  AGGREGATED_DISCOVERY_GROUP,
  AGGREGATED_DISCOVERY_KIND,
  AGGREGATED_DISCOVERY_VERSION,
  apiGroup,
  apiGroupDiscoveryList,
  apiGroupList,
  apiResourceList,
  apiVersions,
  servedGroups,
  type ServedGroup,
} from '../discovery/index.js';
import type { ExternalDiscovery } from '../host.js';

/** The Content-Type of an aggregated discovery response, exactly as kube writes it. */
export const AGGREGATED_DISCOVERY_CONTENT_TYPE = `application/json;g=${AGGREGATED_DISCOVERY_GROUP};v=${AGGREGATED_DISCOVERY_VERSION};as=${AGGREGATED_DISCOVERY_KIND}`;
const JSON_CONTENT_TYPE = 'application/json';

export type DiscoveryFormat = 'aggregated' | 'legacy';

/**
 * Which discovery document the Accept header asks for: the first acceptable entry by preference (q, then order)
 * decides. Only `application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList` selects the aggregated
 * form; other `as=` entries (v2beta1, which kube no longer serves) are skipped; JSON or a wildcard selects the
 * unaggregated form, which is also the answer when nothing else matches. Accept is parsed by the shared
 * negotiation module.
 */
export function negotiateDiscovery(accept: string | null | undefined): DiscoveryFormat {
  const entries = parseMediaTypes(accept).map((r) => ({ mime: `${r.type}/${r.subtype}`, params: r.params }));
  for (const { mime, params } of entries) {
    if (params.as !== undefined) {
      if (
        mime === 'application/json' &&
        params.g === AGGREGATED_DISCOVERY_GROUP &&
        params.v === AGGREGATED_DISCOVERY_VERSION &&
        params.as === AGGREGATED_DISCOVERY_KIND
      ) {
        return 'aggregated';
      }
      continue;
    }
    if (mime === 'application/json' || mime === 'application/*' || mime === '*/*') return 'legacy';
  }
  return 'legacy';
}

const notFound = newPathNotFound;

function errorResponse(err: StatusError): Response {
  return new Response(JSON.stringify(err.status), { status: err.code, headers: { 'Content-Type': JSON_CONTENT_TYPE } });
}

interface Encoded {
  body: string;
  etag: string;
}

// Discovery only changes when the groups do: the served groups and every serialized document are kept while
// `getGroups()` returns the same definitions (compared one by one, so an array mutated in place is noticed too),
// and each document is encoded once.
interface Snapshot {
  definitions: readonly GroupDefinition[];
  external: ExternalDiscovery | undefined;
  groups: ServedGroup[];
  encoded: Map<string, Encoded>;
}

function encode(doc: unknown): Encoded {
  const body = JSON.stringify(doc);
  // kube's aggregated discovery ETag: the uppercase hex SHA-512 of the document, quoted
  return { body, etag: `"${createHash('sha512').update(body).digest('hex').toUpperCase()}"` };
}

/**
 * The discovery routes, reading the registered groups on every request through `getGroups` (so groups added later
 * show up), with the group versions other servers serve from `getExternal`. Only GET (and HEAD, which hono answers
 * from GET) is routed here.
 */
export function createDiscoveryRoutes(getGroups: () => GroupDefinition[], getExternal: () => ExternalDiscovery | undefined = () => undefined): Hono {
  let last: Snapshot | undefined;
  const snapshot = (): Snapshot => {
    const defs = getGroups();
    const external = getExternal();
    const same = last && last.external === external && last.definitions.length === defs.length && last.definitions.every((d, i) => d === defs[i]);
    if (!last || !same) last = { definitions: [...defs], external, groups: servedGroups(defs, external), encoded: new Map() };
    return last;
  };
  // Only documents that exist are kept, so requests for made-up paths cannot grow the cache.
  const cached = (snap: Snapshot, key: string, build: (groups: ServedGroup[]) => unknown): Encoded | null => {
    let encoded = snap.encoded.get(key);
    if (!encoded) {
      const doc = build(snap.groups);
      if (doc === undefined) return null;
      encoded = encode(doc);
      snap.encoded.set(key, encoded);
    }
    return encoded;
  };
  const json = (encoded: Encoded | null): Response =>
    encoded ? new Response(encoded.body, { status: 200, headers: { 'Content-Type': JSON_CONTENT_TYPE } }) : errorResponse(notFound());

  // Root documents vary with Accept; the aggregated one also carries kube's ETag and answers If-None-Match with 304.
  const root = (c: Context, key: 'api' | 'apis', select: (groups: ServedGroup[]) => ServedGroup[], legacy: (groups: ServedGroup[]) => unknown) => {
    const snap = snapshot();
    if (negotiateDiscovery(c.req.header('accept')) === 'aggregated') {
      const encoded = cached(snap, `${key}:v2`, (groups) => apiGroupDiscoveryList(select(groups)))!;
      const headers = { 'Content-Type': AGGREGATED_DISCOVERY_CONTENT_TYPE, ETag: encoded.etag, Vary: 'Accept', 'Cache-Control': 'public' };
      if (c.req.header('if-none-match') === encoded.etag) return new Response(null, { status: 304, headers });
      return new Response(encoded.body, { status: 200, headers });
    }
    return new Response(JSON.stringify(legacy(snap.groups)), { status: 200, headers: { 'Content-Type': JSON_CONTENT_TYPE, Vary: 'Accept' } });
  };
  const core = (groups: ServedGroup[]) => groups.filter((g) => g.name === '');
  const named = (groups: ServedGroup[]) => groups.filter((g) => g.name !== '');
  const findGroup = (groups: ServedGroup[], name: string) => groups.find((g) => g.name === name);

  const handlers: Record<string, (c: Context) => Response> = {
    '/api': (c) => root(c, 'api', core, (groups) => apiVersions(findGroup(groups, ''), serverAddress(c))),
    '/apis': (c) => root(c, 'apis', named, (groups) => apiGroupList(groups)),
    '/api/:version': (c) => {
      const version = c.req.param('version') ?? '';
      return json(cached(snapshot(), `api/${version}`, (groups) => {
        const group = findGroup(groups, '');
        return group && apiResourceList(group, version);
      }));
    },
    '/apis/:group': (c) => {
      const name = c.req.param('group') ?? '';
      return json(cached(snapshot(), `apis/${name}`, (groups) => {
        const group = name ? findGroup(groups, name) : undefined;
        return group && apiGroup(group);
      }));
    },
    '/apis/:group/:version': (c) => {
      const name = c.req.param('group') ?? '';
      const version = c.req.param('version') ?? '';
      return json(cached(snapshot(), `apis/${name}/${version}`, (groups) => {
        const group = name ? findGroup(groups, name) : undefined;
        return group && apiResourceList(group, version);
      }));
    },
  };
  // Each path is also served with a trailing slash, as kube-apiserver does (the Python client asks for `/api/`).
  const app = new Hono();
  for (const [path, handler] of Object.entries(handlers)) {
    app.get(path, handler);
    app.get(`${path}/`, handler);
  }
  return app;
}

/** The `host:port` the client reached the server at (the Host header; the request URL's host without one). */
function serverAddress(c: Context): string {
  const host = c.req.header('host');
  if (host) return host;
  try {
    return new URL(c.req.url).host;
  } catch {
    return '';
  }
}
