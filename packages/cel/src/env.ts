// The one CEL environment of Kapi, shared by x-kubernetes-validations rules and admission expressions (as kube's base
// environment is): the standard library, kube's libraries (authz included), every function metered for cost, and the
// opaque kube types registered.
import { celEnv, type CelEnv } from '@bufbuild/cel';
import { meterFunctions, tickFunction } from './cost.js';
import { AUTHZ_CALL_COSTS } from './lib/authz.js';
import { kubeLibraries } from './lib/index.js';
import { opaqueRegistry } from './opaque.js';

let shared: CelEnv | undefined;

/** The shared environment (variables are not declared in it: Kapi's own checker resolves names). */
export function ruleEnv(): CelEnv {
  if (!shared) {
    const base = celEnv({ registry: opaqueRegistry, funcs: kubeLibraries });
    shared = celEnv({ registry: opaqueRegistry, funcs: [...meterFunctions(base.funcs, AUTHZ_CALL_COSTS), tickFunction] });
  }
  return shared;
}
