/** `group.json` of each folder the importer writes. */

const APIMACHINERY_PACKAGE = { package: '@kapi/apimachinery', directory: 'packages/apimachinery' };

const FIXED: Record<string, Record<string, string>> = {
  meta: { group: 'meta.k8s.io', ...APIMACHINERY_PACKAGE },
  apidiscovery: { group: 'apidiscovery.k8s.io', ...APIMACHINERY_PACKAGE },
};

/** Folder → group.json content, given the API group of each folder's kinds. */
export function groupFiles(groupsByFolder: Map<string, string>, folders: Iterable<string>): Map<string, Record<string, string | boolean>> {
  const out = new Map<string, Record<string, string | boolean>>();
  for (const folder of [...new Set(folders)].sort()) {
    const fixed = FIXED[folder];
    if (fixed) {
      out.set(folder, fixed);
      continue;
    }
    const group = groupsByFolder.get(folder) ?? (folder === 'core' ? '' : undefined);
    if (group === undefined) throw new Error(`no API group known for schema folder ${folder}`);
    // Built-in groups take strategic merge patches, as kube-apiserver serves them.
    out.set(folder, { group, strategicMergePatch: true });
  }
  return out;
}
