// Kapi as a user outside this repository gets it: the published packages packed as `pnpm publish` would pack them,
// checked by attw and publint, installed into an empty directory, a project started with `kapi-codegen init`, a
// group generated from a schema that refers to ObjectMeta and PodTemplateSpec, built, tested, served over HTTPS with
// the generated kubeconfig, and driven with kubectl.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkPackage, createPackageFromTarballData, type Problem } from '@arethetypeswrong/core';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { kubectlBinaries, runAsync, type KubectlResult } from '../src/kubectl.js';

const repo = fileURLToPath(new URL('../../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'kapi-outside-'));
const tarballs = join(work, 'tarballs');
const project = join(work, 'my-api');
const kubectl = kubectlBinaries([])[0]?.path;

/** pnpm as this test suite was started with (`pnpm run test` under turbo), else through npx. */
function pnpm(...args: string[]): [string, string[]] {
  const execPath = process.env.npm_execpath ?? '';
  return /pnpm/.test(execPath) ? [process.execPath, [execPath, ...args]] : ['npx', ['--yes', 'pnpm@10.34.9', ...args]];
}

/** Runs a command in `cwd`; a non-zero exit throws with its output. */
async function run(cwd: string, cmd: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const res = await new Promise<KubectlResult>((resolve) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (status) => resolve({ status: status ?? -1, stdout, stderr }));
  });
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${res.status}:\n${res.stdout}\n${res.stderr}`);
  return res.stdout;
}

/** npm as a user runs it, with nothing of this workspace in its environment. */
const npm = (cwd: string, ...args: string[]) =>
  run(cwd, 'npm', ['--no-audit', '--no-fund', '--loglevel=error', ...args], { npm_config_user_agent: '', INIT_CWD: cwd, npm_execpath: '' });

/** The tarball of @kapi/<name> (`kapi-<name>-<version>.tgz`). */
const tarball = (name: string) => join(tarballs, readdirSync(tarballs).find((f) => f.replace(/-\d+\.\d+\.\d+[^/]*\.tgz$/, '') === `kapi-${name}`)!);

beforeAll(async () => {
  // Every package that is published, packed by pnpm (which turns workspace: ranges into versions).
  const [cmd, args] = pnpm('-r', '--filter', './packages/*', '--filter', './codegen', '--filter', './apps/server', '--filter', '!@kapi/e2e', 'pack', '--pack-destination', tarballs);
  await run(repo, cmd, args);
}, 120_000);

describe('the packed packages', () => {
  it('are every published package, with a LICENSE and a README, and no workspace: range', () => {
    const names = readdirSync(tarballs).filter((f) => f.endsWith('.tgz'));
    expect(names.length).toBeGreaterThanOrEqual(35);
    for (const name of names) {
      const pkg = createPackageFromTarballData(new Uint8Array(readFileSync(join(tarballs, name))));
      const root = `/node_modules/${pkg.packageName}`;
      expect(pkg.fileExists(`${root}/LICENSE`), `${name} LICENSE`).toBe(true);
      expect(pkg.fileExists(`${root}/README.md`), `${name} README.md`).toBe(true);
      expect(pkg.readFile(`${root}/package.json`), name).not.toContain('workspace:');
    }
  });

  it('have types that resolve in every module system they claim (attw), and pass publint', async () => {
    const found: string[] = [];
    for (const name of readdirSync(tarballs).filter((f) => f.endsWith('.tgz'))) {
      const data = readFileSync(join(tarballs, name));
      const pkg = createPackageFromTarballData(new Uint8Array(data));
      const manifest = JSON.parse(pkg.readFile(`/node_modules/${pkg.packageName}/package.json`)) as { exports?: unknown };
      // An ESM-only package (no `require` condition) is checked as attw's esm-only profile checks it.
      const esmOnly = !JSON.stringify(manifest.exports ?? {}).includes('"require"');
      const result = await checkPackage(pkg);
      const problems = 'problems' in result ? (result.problems as Problem[]) : [];
      for (const p of problems) {
        const kind = 'resolutionKind' in p ? p.resolutionKind : undefined;
        if (esmOnly && (kind === 'node10' || kind === 'node16-cjs')) continue;
        found.push(`${name}: attw ${p.kind} (${kind ?? ''} ${'entrypoint' in p ? p.entrypoint : ''})`);
      }
      if (!result.types) found.push(`${name}: attw: no types`);
      const lint = await publint({ pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer }, level: 'warning', strict: true });
      for (const m of lint.messages) found.push(`${name}: publint ${m.type} ${formatMessage(m, lint.pkg, { color: false })}`);
    }
    expect(found).toEqual([]);
    // About 40 tarballs, each type-checked in every module system: well over 30 s when the whole suite runs.
  }, 180_000);
});

describe.skipIf(!kubectl)('a project outside the repository, from the tarballs', () => {
  let server: ChildProcess | undefined;
  afterAll(() => {
    server?.kill('SIGTERM');
  });

  it('init, install, generate, build, test, then serve HTTPS to kubectl', async () => {
    // `npx @kapi/codegen init`, with the package taken from its tarball.
    const init = await run(work, 'npx', ['--yes', '--package', tarball('codegen'), 'kapi-codegen', 'init', 'my-api'], { npm_config_user_agent: '', npm_execpath: '' });
    expect(init).toContain('wrote schemas/widgets/v1/Widget.json');
    const schema = readFileSync(join(project, 'schemas/widgets/v1/Widget.json'), 'utf8');
    expect(schema).toContain('"kapi:meta/v1/ObjectMeta"');
    expect(schema).toContain('"kapi:core/v1/PodTemplateSpec"');

    // The project's @kapi dependencies, from the tarballs (the registry has none of this version).
    const own = ['api-core', 'apimachinery', 'apiserver', 'serve', 'storage', 'codegen'].map(tarball);
    await npm(project, 'install', ...own);
    await npm(project, 'run', 'build');
    expect(readFileSync(join(project, 'src/generated/widgets/v1/Widget.ts'), 'utf8')).toContain('import type { PodTemplateSpec } from "@kapi/api-core";');
    const tested = await npm(project, 'test');
    expect(tested).toMatch(/# pass 3/);

    // `npm start` builds and serves on 6443; the built server is started here on a free port instead.
    server = spawn(process.execPath, ['dist/server.js'], { cwd: project, env: { ...process.env, PORT: '0', KAPI_DATA_DIR: join(project, '.kapi') } });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      server!.stdout!.on('data', (c) => {
        out += c;
        const m = /listening on (https:\/\/\S+)/.exec(out);
        if (m && out.includes('admin kubeconfig:')) resolve(m[1]);
      });
      server!.on('close', (code) => reject(new Error(`server exited ${code}: ${out}`)));
    });
    const kubeconfig = join(project, '.kapi/admin.kubeconfig');
    expect((parse(readFileSync(kubeconfig, 'utf8')) as { clusters: { cluster: { server: string } }[] }).clusters[0].cluster.server).toBe(url);
    const k = async (...args: string[]) => {
      const res = await runAsync(kubectl!, ['--kubeconfig', kubeconfig, ...args]);
      if (res.status !== 0) throw new Error(`kubectl ${args.join(' ')}: ${res.stderr}`);
      return res.stdout;
    };

    const manifest = join(project, 'widget.yaml');
    const widget = (size: number) =>
      `apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  size: ${size}\n  template:\n    spec:\n      containers:\n      - name: app\n        image: nginx:1.27\n`;
    writeFileSync(manifest, widget(2));
    expect(await k('create', '-f', manifest)).toContain('widget.widgets.example.com/w1 created');
    writeFileSync(manifest, widget(3));
    expect(await k('apply', '-f', manifest)).toContain('configured');
    const applied = JSON.parse(await k('get', 'widget', 'w1', '-o', 'json')).metadata.resourceVersion;
    // Applied again unchanged: kubectl sends the containers list again (a merge patch replaces lists, as for custom
    // resources in kube), and the server finds nothing to write.
    await k('apply', '-f', manifest);
    expect(JSON.parse(await k('get', 'widget', 'w1', '-o', 'json')).metadata.resourceVersion).toBe(applied);
    // The schema's printer columns, the priority-1 one with -o wide.
    const table = await k('get', 'widgets', '-o', 'wide');
    expect(table.split('\n')[0].split(/\s+/)).toEqual(['NAME', 'SIZE', 'IMAGE', 'AGE']);
    expect(table.split('\n')[1]).toMatch(/^w1\s+3\s+nginx:1\.27\s+/);
    // A built-in type inside the kind, defaulted by the core group's rules and explained from the merged OpenAPI.
    expect(JSON.parse(await k('get', 'widget', 'w1', '-o', 'json')).spec.template.spec.containers[0].imagePullPolicy).toBe('IfNotPresent');
    const explained = await k('explain', 'widgets.spec.template.spec.containers.image');
    expect(explained).toContain('KIND:       Widget');
    expect(explained).toContain('FIELD: image <string>');
    expect(await k('explain', 'widgets.spec')).toContain('How many to run.');
  }, 240_000);
});
