// kube keeps at most 10 Update entries (capManagersManager): past that, the oldest are merged, per apiVersion,
// into an "ancient-changes" entry that takes the time of the newest update merged into it.
import { compareStrings } from './go-json.js';
import { union } from './field-set.js';
import { managerIdentifier, timeSeconds, type Managers } from './managers.js';

export const DEFAULT_MAX_UPDATE_MANAGERS = 10;
const BUCKET = 'ancient-changes';

export function capUpdateManagers(managers: Managers, max = DEFAULT_MAX_UPDATE_MANAGERS): Managers {
  const updaters = [...managers].filter(([, m]) => m.operation === 'Update').map(([id]) => id);
  if (updaters.length <= max) return managers;
  updaters.sort((a, b) => timeSeconds(managers.get(a)!.time) - timeSeconds(managers.get(b)!.time) || compareStrings(a, b));
  const out: Managers = new Map(managers);
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const id = updaters[i]!;
    const m = out.get(id)!;
    const bucket = managerIdentifier({ manager: BUCKET, operation: 'Update', apiVersion: m.apiVersion });
    const first = firstOfVersion.get(m.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(m.apiVersion, id);
      continue;
    }
    if (!out.has(bucket)) {
      const f = out.get(first)!;
      out.delete(first);
      out.set(bucket, { ...f, manager: BUCKET, operation: 'Update', subresource: undefined });
    }
    const b = out.get(bucket)!;
    const merged = { ...b, set: union(m.set, b.set), apiVersion: m.apiVersion };
    if (m.time) merged.time = m.time;
    else delete merged.time;
    if (merged.subresource === undefined) delete merged.subresource;
    out.set(bucket, merged);
    out.delete(id);
    length--;
  }
  return out;
}
