/**
 * kube's pkg/capabilities: settings of the whole process that pod validation follows, set once as the server starts
 * (kube-apiserver's `--allow-privileged`). They are the process's, not one server's, as in kube: every pod and pod
 * template validated in this process follows the last setup.
 */
export interface Capabilities {
  /**
   * Privileged containers (`securityContext.privileged: true`) and Windows HostProcess containers may be created.
   * kube-apiserver's `--allow-privileged`, false by default as there.
   */
  allowPrivileged: boolean;
}

let current: Readonly<Capabilities> = { allowPrivileged: false };

/** Sets the process's capabilities (kube's capabilities.Setup); what is not given keeps its value. */
export function setupCapabilities(capabilities: Partial<Capabilities>): void {
  current = { ...current, ...capabilities };
}

/** The process's capabilities (kube's capabilities.Get). */
export function capabilities(): Readonly<Capabilities> {
  return current;
}
