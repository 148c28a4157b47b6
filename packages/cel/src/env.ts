// The CEL environment of x-kubernetes-validations rules: the standard library, kube's libraries, every function
// metered for cost, and the opaque kube types registered.
import { celEnv, type CelEnv } from '@bufbuild/cel';
import { meterFunctions, tickFunction } from './cost.js';
import { kubeLibraries } from './lib/index.js';
import { opaqueRegistry } from './opaque.js';

let shared: CelEnv | undefined;

/** The shared rule environment (variables are not declared in it: Kapi's own checker resolves names). */
export function ruleEnv(): CelEnv {
  if (!shared) {
    const base = celEnv({ registry: opaqueRegistry, funcs: kubeLibraries });
    shared = celEnv({ registry: opaqueRegistry, funcs: [...meterFunctions(base.funcs), tickFunction] });
  }
  return shared;
}
