import type { KubeObject } from '@kapi/apimachinery';
import type { PluginHost } from '../host.js';
import { ALL_OBJECTS } from './list.js';
import type { ResourceEntry } from './resources.js';

/** The objects of one resource as last read, kept current (an informer's cache). */
export interface ListSource {
  objects(): readonly KubeObject[];
  /** Reads them again; concurrent calls coalesce (one more read after the running one). */
  sync(): Promise<void>;
}

/**
 * Follows every object of a resource: read at start and again whenever one changes (on this server or another
 * sharing its storage), so admission configuration takes effect without a restart. `onLoad` sees each new list,
 * sorted by name.
 */
export function followObjects(host: PluginHost, entry: ResourceEntry, onLoad: (objects: readonly KubeObject[]) => void = () => {}): ListSource {
  let current: readonly KubeObject[] = [];
  const name = (o: KubeObject) => String((o.metadata as { name?: string }).name ?? '');
  const load = async () => {
    const list = await host.store.list(host.systemContext(entry), ALL_OBJECTS);
    current = (list.items as KubeObject[]).slice().sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
    onLoad(current);
  };
  const source: ListSource = {
    objects: () => current,
    sync: coalesced(load, (err) => host.log(1, `${entry.info.plural}.${entry.info.group}: ${err.message}`)),
  };
  host.onStart(() => source.sync());
  host.onObjectsChange(entry, () => void source.sync());
  return source;
}

/**
 * `run` as a function callers may call at any time: a call while it runs is not started beside it but makes it run
 * once more after, however many came (so the last caller always sees a run that began after its call). Errors go to
 * `onError`; the returned promise never rejects.
 */
export function coalesced(run: () => Promise<void>, onError: (err: Error) => void): () => Promise<void> {
  let running: Promise<void> | undefined;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await run();
        } while (again);
      } catch (err) {
        onError(err as Error);
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
}
