#!/usr/bin/env node
// kapi-testing serve: a throwaway Kubernetes API server for tests in any language. Prints one JSON line
// ({"url", "kubeconfig"}) on stdout when it is ready, serves until SIGINT or SIGTERM (or, with --exit-with-stdin,
// until its standard input closes: the test process that started it ended), then removes what it wrote.
import { copyFileSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { GroupPlugin } from '@kapi/apiserver';
import { garbageCollector } from '@kapi/controllers';
import { parseAllDocuments } from 'yaml';
import { loadGroups } from './groups.js';
import { startTestServer } from './index.js';

const USAGE = `Usage: kapi-testing serve [options]
  --groups LIST        groups served beside core, comma-separated (default all: apps,batch,coordination,
                       networking,policy,rbac,apiextensions)
  --crd FILE           create the CustomResourceDefinitions in FILE (YAML or JSON, several documents) and wait
                       until they are served; repeatable
  --plugin MODULE      also serve the group plugin MODULE exports as \`plugin\` (a path or package); repeatable
  --port N             listen on port N (default: a free port)
  --kubeconfig FILE    also write the admin kubeconfig to FILE
  --exit-with-stdin    stop when standard input closes
Prints {"url": ..., "kubeconfig": ...} on one line when ready. Objects live in memory and go with the process.`;

async function loadPlugin(spec: string): Promise<GroupPlugin> {
  const target = spec.startsWith('.') || spec.startsWith('/') ? pathToFileURL(resolve(spec)).href : spec;
  const mod = (await import(target)) as { plugin?: GroupPlugin; default?: { plugin?: GroupPlugin } };
  const plugin = mod.plugin ?? mod.default?.plugin;
  if (!plugin?.definition) throw new Error(`${spec} exports no group plugin named plugin`);
  return plugin;
}

function readCRDs(file: string): object[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  const out: object[] = [];
  for (const doc of docs) {
    if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0].message}`);
    const value = doc.toJS() as { kind?: string } | null;
    if (!value) continue;
    if (value.kind !== 'CustomResourceDefinition') throw new Error(`${file}: a ${value.kind ?? 'document without kind'} is not a CustomResourceDefinition`);
    out.push(value);
  }
  return out;
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') return void console.log(USAGE);
  if (command !== 'serve') throw new Error(`unknown command ${command ?? '(none)'}\n${USAGE}`);
  const { values } = parseArgs({
    args: rest,
    options: {
      groups: { type: 'string', default: 'all' },
      crd: { type: 'string', multiple: true, default: [] },
      plugin: { type: 'string', multiple: true, default: [] },
      port: { type: 'string' },
      kubeconfig: { type: 'string' },
      'exit-with-stdin': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return void console.log(USAGE);
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)) throw new Error(`--port ${values.port}: not a port`);
  const names = values.groups.split(',').map((g) => g.trim()).filter(Boolean);
  const plugins = [...(await loadGroups(names)), ...(await Promise.all(values.plugin.map(loadPlugin)))];
  const crds = values.crd.flatMap(readCRDs);
  const server = await startTestServer({ plugins, crds, port, apiServer: { controllers: [garbageCollector()] } });
  let kubeconfig = server.kubeconfig!;
  if (values.kubeconfig) {
    copyFileSync(kubeconfig, values.kubeconfig);
    kubeconfig = resolve(values.kubeconfig);
  }
  const stop = async () => {
    await server.stop();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  if (values['exit-with-stdin']) {
    process.stdin.on('end', stop);
    process.stdin.on('close', stop);
    process.stdin.resume();
  }
  process.stdout.write(JSON.stringify({ url: server.url, kubeconfig }) + '\n');
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`kapi-testing: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
