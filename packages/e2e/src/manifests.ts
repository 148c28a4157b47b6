import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A function writing manifests to files of a fresh temporary folder, for `kubectl apply -f`: it returns the path. */
export function manifestWriter(prefix: string): (text: string) => string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let files = 0;
  return (text) => {
    const path = join(dir, `m${files++}.yaml`);
    writeFileSync(path, text);
    return path;
  };
}
