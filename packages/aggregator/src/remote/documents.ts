// What the aggregator reads from an extension server for discovery and OpenAPI: the group version's resources
// (aggregated discovery, or the unaggregated resource list of servers without it) and its OpenAPI documents.
import type { APIGroupDiscoveryList, APIResource, APIResourceDiscovery } from '@kapi/apimachinery';
import { AGGREGATED_DISCOVERY_CONTENT_TYPE, resourceDiscoveries } from '@kapi/apiserver';
import { DISCOVERY_CHECK_TIMEOUT_MS } from '../availability/check.js';
import { AGGREGATOR_USER, getBody, type Dialer } from '../transport.js';
import { openAPIDocument, sanitizeResources } from './sanitize.js';

/** A document of the extension's, read whole as the aggregator (AGGREGATOR_USER). */
const read = (dialer: Dialer, url: URL, path: string, accept = 'application/json') =>
  getBody(dialer, url, path, { accept, ...AGGREGATOR_USER }, DISCOVERY_CHECK_TIMEOUT_MS);

/** One group version's documents, as last read (each may be missing when the extension does not serve it). */
export interface RemoteDocuments {
  resources?: APIResourceDiscovery[];
  openapiV3?: object;
  openapiV2?: object;
}

const json = (body: Buffer): unknown => JSON.parse(body.toString('utf8'));

/** The resources of `group/version` the extension at `url` serves. */
export async function readResources(dialer: Dialer, url: URL, group: string, version: string): Promise<APIResourceDiscovery[]> {
  const root = group ? '/apis' : '/api';
  const aggregated = await read(dialer, url, root, `${AGGREGATED_DISCOVERY_CONTENT_TYPE},application/json`);
  if (aggregated.contentType.includes('as=APIGroupDiscoveryList')) {
    const list = json(aggregated.body) as APIGroupDiscoveryList;
    const found = list.items?.find((g) => (g.metadata?.name ?? '') === group)?.versions?.find((v) => v.version === version);
    if (found) return sanitizeResources(found.resources);
  }
  const path = group ? `/apis/${group}/${version}` : `/api/${version}`;
  const legacy = await read(dialer, url, path);
  const list = json(legacy.body) as { resources?: APIResource[] };
  const resources = Array.isArray(list.resources) ? list.resources.filter((r) => typeof r?.name === 'string' && typeof r?.kind === 'string') : [];
  return sanitizeResources(resourceDiscoveries(resources, group, version));
}

/** The extension's OpenAPI v3 document of `group/version` (found through its /openapi/v3 index), if it has one. */
export async function readOpenAPIV3(dialer: Dialer, url: URL, group: string, version: string): Promise<object | undefined> {
  const index = json((await read(dialer, url, '/openapi/v3')).body) as {
    paths?: Record<string, { serverRelativeURL?: string }>;
  };
  const key = group ? `apis/${group}/${version}` : `api/${version}`;
  const relative = index.paths?.[key]?.serverRelativeURL;
  if (typeof relative !== 'string' || !relative.startsWith('/')) return undefined;
  return openAPIDocument(json((await read(dialer, url, relative)).body));
}

/** The extension's /openapi/v2 (JSON). */
export async function readOpenAPIV2(dialer: Dialer, url: URL): Promise<object | undefined> {
  return openAPIDocument(json((await read(dialer, url, '/openapi/v2')).body));
}
