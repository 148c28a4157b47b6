import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubectlBinaries, kubectlOk, kubectlRunner } from '../src/kubectl.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const kubectl = kubectlBinaries()[0];

/** Splits kubectl's aligned table into rows of trimmed cells, by the header's column offsets. */
function parseTable(text: string): string[][] {
  const [header, ...lines] = text.split('\n').filter((l) => l.trim() !== '');
  const starts = [...header.matchAll(/\S+/g)].map((m) => m.index!);
  return [header, ...lines].map((line) => starts.map((start, i) => line.slice(start, starts[i + 1]).trim()));
}

describe.skipIf(!kubectl)('kubectl api-resources against kube-apiserver 1.33', { timeout: 60_000 }, () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lists the resources kube-apiserver 1.33 lists with default flags: names, short names, versions, scope, kinds, verbs, categories', () => {
    const expected = parseTable(readFileSync(join(import.meta.dirname, 'reference', 'kube-1.33-api-resources.txt'), 'utf8'));
    const run = kubectlRunner(kubectl!.path, server.kubeconfig);
    const actual = parseTable(kubectlOk(run, 'api-resources', '-o', 'wide'));
    expect(actual[0]).toEqual(expected[0]);
    const key = (row: string[]) => `${row[2]} ${row[0]}`;
    // The sample server's own example group is not kube's.
    const ours = actual.slice(1).filter((row) => !row[2].startsWith('wardle.example.com/'));
    const kubes = expected.slice(1);
    expect(ours.map(key).sort()).toEqual(kubes.map(key).sort());
    const byKey = new Map(kubes.map((row) => [key(row), row]));
    for (const row of ours) expect(row).toEqual(byKey.get(key(row)));
  });
});
