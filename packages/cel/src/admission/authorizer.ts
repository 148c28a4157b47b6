// The authorizer of admission expressions: Kapi's authorizers are async, CEL evaluation is sync. An evaluation asks
// a DecisionCache; a check it does not know yet is recorded as pending and fails that evaluation; the caller awaits
// the pending checks (`fetchPending`) and evaluates again with the answers known.
import type { AuthorizationAttributes, AuthorizationDecision, AuthorizationOracle } from '../lib/authz.js';

/** An async authorizer as admission expressions use it (@kapi/apiserver's `Authorizer.authorize` fits). */
export type AdmissionAuthorizer = (attributes: AuthorizationAttributes) => AuthorizationDecision | Promise<AuthorizationDecision>;

const keyOf = (a: AuthorizationAttributes): string =>
  JSON.stringify([a.user.username, a.user.uid ?? '', a.user.groups, a.user.extra ?? {}, a.verb, a.resourceRequest, a.path, a.apiGroup, a.apiVersion, a.resource, a.subresource, a.namespace, a.name, a.fieldSelector ?? '', a.labelSelector ?? '']);

/**
 * kube's CachingAuthorizer for one admission request: each distinct check is asked of `authorizer` once. Share one
 * between the evaluations of a request so that they do not ask twice.
 */
export function cachingAuthorizer(authorizer: AdmissionAuthorizer): AdmissionAuthorizer {
  const cache = new Map<string, Promise<AuthorizationDecision>>();
  return (attributes) => {
    const key = keyOf(attributes);
    let hit = cache.get(key);
    if (!hit) {
      hit = Promise.resolve().then(() => authorizer(attributes));
      cache.set(key, hit);
    }
    return hit;
  };
}

/** The decisions an evaluation can see, and the checks it asked for that are not known yet. */
export class DecisionCache implements AuthorizationOracle {
  private readonly known = new Map<string, AuthorizationDecision>();
  private readonly pending = new Map<string, AuthorizationAttributes>();
  /** How many unknown checks were asked for so far (an evaluation that raised it waits for answers). */
  asked = 0;

  constructor(private readonly authorizer: AdmissionAuthorizer) {}

  decide(attributes: AuthorizationAttributes): AuthorizationDecision | undefined {
    const key = keyOf(attributes);
    const d = this.known.get(key);
    if (!d) {
      this.pending.set(key, attributes);
      this.asked++;
    }
    return d;
  }

  /** Whether checks were asked for that are not known yet. */
  get hasPending(): boolean {
    return this.pending.size > 0;
  }

  /** Asks the authorizer for the pending checks; a failing authorizer is kube's errored decision. */
  async fetchPending(): Promise<void> {
    const asked = [...this.pending];
    this.pending.clear();
    await Promise.all(
      asked.map(async ([key, attributes]) => {
        let d: AuthorizationDecision;
        try {
          d = await this.authorizer(attributes);
        } catch (e) {
          d = { decision: 'no-opinion', evaluationError: e instanceof Error ? e.message : String(e) };
        }
        this.known.set(key, d);
      }),
    );
  }
}
