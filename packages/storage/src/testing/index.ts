import { describe } from 'vitest';
import { describeCompaction } from './compaction.js';
import { describeConcurrency } from './concurrency.js';
import { describeCrud } from './crud.js';
import { useBackend, type BackendFactory } from './helpers.js';
import { describeList } from './list.js';
import { describeWatch } from './watch.js';

export type { BackendFactory } from './helpers.js';

/**
 * Declares the storage conformance suite (a vitest `describe`) for a backend. Call it at the top level of a test
 * file. `factory` is called before every test and must return an empty backend that nothing else writes to;
 * the suite closes it after the test. Revisions are asserted relative to the backend's starting revision.
 */
export function runStorageConformance(name: string, factory: BackendFactory): void {
  describe(`storage conformance: ${name}`, () => {
    const backend = useBackend(factory);
    describeCrud(backend);
    describeList(backend);
    describeCompaction(backend);
    describeWatch(backend);
    describeConcurrency(backend);
  });
}
