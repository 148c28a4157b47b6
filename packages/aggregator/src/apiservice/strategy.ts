import type { FieldError, KubeObject } from '@kapi/apimachinery';
import type { RequestContext, Strategy } from '@kapi/apiserver';
import type { APIService } from './types.js';
import { validateAPIService, validateAPIServiceStatus } from './validation.js';

/** kube-aggregator's apiservice strategy: the spec is validated on every write, the status alone on /status. */
export const apiServiceStrategy: Strategy = {
  validate: (obj: KubeObject): FieldError[] => validateAPIService(obj as APIService),
  validateUpdate: (obj: KubeObject, _old: KubeObject, ctx: RequestContext): FieldError[] =>
    ctx.subresource === 'status' ? validateAPIServiceStatus(obj as APIService) : validateAPIService(obj as APIService),
};
