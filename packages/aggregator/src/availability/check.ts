// kube-aggregator's remote AvailableConditionController check: is the Service there, does it reach an address,
// and does the extension answer discovery of the group version?
import type { APIServiceCondition, APIService } from '../apiservice/types.js';
import type { ServiceAddress } from '@kapi/apiserver';
import { AGGREGATOR_USER, getBody, type Dialer } from '../transport.js';

/** How long a discovery check waits for the extension (kube's: 5 s). */
export const DISCOVERY_CHECK_TIMEOUT_MS = 5_000;


/** The Available condition a Local APIService always has. */
export const LOCAL_AVAILABLE: Omit<APIServiceCondition, 'lastTransitionTime'> = {
  type: 'Available',
  status: 'True',
  reason: 'Local',
  message: 'Local APIServices are always available',
};

/** The Available condition of a service-backed APIService now, where its Service resolved to: its discovery document read. */
export async function checkAvailable(
  apiService: APIService,
  resolution: ServiceAddress,
  dialer: () => Dialer,
  timeoutMs = DISCOVERY_CHECK_TIMEOUT_MS,
): Promise<Omit<APIServiceCondition, 'lastTransitionTime'>> {
  if (!('url' in resolution)) {
    return { type: 'Available', status: resolution.unknown ? 'Unknown' : 'False', reason: resolution.reason, message: resolution.message };
  }
  const { group = '', version = '' } = apiService.spec;
  const path = apiService.metadata.name === 'v1.' ? `/api/${version}` : `/apis/${group}/${version}`;
  const url = `${resolution.url.origin}${path}`;
  try {
    await getBody(dialer(), resolution.url, path, { accept: 'application/json', ...AGGREGATOR_USER }, timeoutMs);
  } catch (err) {
    const message = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError' ? `timed out waiting for ${url}` : (err as Error).message;
    return { type: 'Available', status: 'False', reason: 'FailedDiscoveryCheck', message: `failing or missing response from ${url}: ${message}` };
  }
  return { type: 'Available', status: 'True', reason: 'Passed', message: 'all checks passed' };
}

/** Whether two conditions say the same (the transition time aside): an unchanged status is not written again. */
export const sameCondition = (a: Omit<APIServiceCondition, 'lastTransitionTime'> | undefined, b: Omit<APIServiceCondition, 'lastTransitionTime'>): boolean =>
  !!a && a.status === b.status && (a.reason ?? '') === (b.reason ?? '') && (a.message ?? '') === (b.message ?? '');
