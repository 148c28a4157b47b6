import type { KubeObject } from '@kapi/apimachinery';

/** apiregistration.k8s.io/v1 APIService, as the aggregator reads it. */
export interface APIService extends KubeObject {
  metadata: { name: string; uid?: string; resourceVersion?: string; generation?: number; labels?: Record<string, string> };
  spec: APIServiceSpec;
  status?: { conditions?: APIServiceCondition[] };
}

export interface APIServiceSpec {
  /** Where the group version is served; none: by this server (a Local APIService). */
  service?: { namespace?: string; name?: string; port?: number };
  group?: string;
  version?: string;
  insecureSkipTLSVerify?: boolean;
  /** Base64 of the PEM CA bundle the extension's serving certificate is verified with. */
  caBundle?: string;
  groupPriorityMinimum?: number;
  versionPriority?: number;
}

export interface APIServiceCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** The `Available` condition of an APIService, if it has one. */
export function availableCondition(apiService: APIService): APIServiceCondition | undefined {
  return apiService.status?.conditions?.find((c) => c.type === 'Available');
}

/** `group/version`, `v1` for the legacy core group: how the aggregator keys an APIService's group version. */
export const groupVersionKey = (group: string, version: string): string => (group ? `${group}/${version}` : version);
