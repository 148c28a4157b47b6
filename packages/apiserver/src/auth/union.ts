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
    async authorize(attributes: AuthorizationAttributes): Promise<Decision> {
      const reasons: string[] = [];
      const errors: string[] = [];
      for (const authorizer of authorizers) {
        let decision: Decision;
        try {
          decision = await authorizer.authorize(attributes);
        } catch (err) {
          errors.push(messageOf(err));
          continue;
        }
        if (decision.evaluationError) errors.push(decision.evaluationError);
        if (decision.decision === 'allow' || decision.decision === 'deny') {
          onDecision?.(authorizer.name, decision.decision);
          return decision;
        }
        if (decision.reason) reasons.push(decision.reason);
      }
      const out: Decision = { decision: 'no-opinion' };
      if (reasons.length) out.reason = reasons.join('\n');
      if (errors.length) out.evaluationError = errors.join(', ');
      return out;
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
