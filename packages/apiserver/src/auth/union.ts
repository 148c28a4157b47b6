import { isPromise } from '../maybe.js';
import type { UserInfo } from '../admission/types.js';
import type { AuthorizationAttributes, Authorizer, Decision, SubjectRules } from './types.js';

/**
 * kube's union authorizer (`--authorization-mode=A,B`): asks each authorizer in order; the first allow or deny
 * decides. When none has an opinion, the answer is no opinion with every reason given — a request is only let
 * through on allow, so that denies it, while SubjectAccessReview reports it as `allowed: false` without `denied`.
 * An authorizer that throws counts as no opinion and its error is kept as the evaluation error. `onDecision` hears
 * which authorizer made each terminal decision (kube's apiserver_authorization_decisions_total).
 */
export function unionAuthorizer(authorizers: readonly Authorizer[], onDecision?: (authorizer: string, decision: 'allow' | 'deny') => void): Authorizer {
  return {
    name: authorizers.map((a) => a.name).join(','),
    // Synchronous while every authorizer asked answers synchronously (most requests: no turn of the event loop).
    authorize(attributes: AuthorizationAttributes): Decision | Promise<Decision> {
      const reasons: string[] = [];
      const errors: string[] = [];
      /** The decision of authorizer `i` when it ends the search (allow or deny); its reason or error kept otherwise. */
      const decides = (i: number, decision: Decision): Decision | undefined => {
        if (decision.evaluationError) errors.push(decision.evaluationError);
        if (decision.decision === 'allow' || decision.decision === 'deny') {
          onDecision?.(authorizers[i].name, decision.decision);
          return decision;
        }
        if (decision.reason) reasons.push(decision.reason);
        return undefined;
      };
      /** Asks the authorizers from `first` on. */
      const ask = (first: number): Decision | Promise<Decision> => {
        for (let i = first; i < authorizers.length; i++) {
          let answer: Decision | Promise<Decision>;
          try {
            answer = authorizers[i].authorize(attributes);
          } catch (err) {
            errors.push(messageOf(err));
            continue;
          }
          if (isPromise(answer)) {
            return answer.then(
              (decision) => decides(i, decision) ?? ask(i + 1),
              (err: unknown) => {
                errors.push(messageOf(err));
                return ask(i + 1);
              },
            );
          }
          const decided = decides(i, answer);
          if (decided) return decided;
        }
        const out: Decision = { decision: 'no-opinion' };
        if (reasons.length) out.reason = reasons.join('\n');
        if (errors.length) out.evaluationError = errors.join(', ');
        return out;
      };
      return ask(0);
    },
    async rulesFor(user: UserInfo, namespace: string): Promise<SubjectRules> {
      const rules: SubjectRules = { resourceRules: [], nonResourceRules: [], incomplete: false };
      const errors: string[] = [];
      for (const authorizer of authorizers) {
        try {
          const r = await authorizer.rulesFor(user, namespace);
          rules.resourceRules.push(...r.resourceRules);
          rules.nonResourceRules.push(...r.nonResourceRules);
          if (r.incomplete) rules.incomplete = true;
          if (r.evaluationError) errors.push(r.evaluationError);
        } catch (err) {
          rules.incomplete = true;
          errors.push(messageOf(err));
        }
      }
      if (errors.length) rules.evaluationError = errors.join(', ');
      return rules;
    },
  };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
