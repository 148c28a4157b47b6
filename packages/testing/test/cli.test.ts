// kapi-testing serve as a test in another language starts it: a child process, one JSON line when ready, kubectl.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'kapi-testing-cli-'));
const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function run(cmd: string, args: string[], input?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** Starts the CLI and resolves with its ready line, or rejects with its stderr when it exits first. */
function serve(args: string[]): Promise<{ child: ChildProcessWithoutNullStreams; ready: { url: string; kubeconfig: string } }> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args]);
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve({ child, ready: JSON.parse(out.slice(0, nl)) });
    });
    child.on('close', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

const exited = (child: ChildProcessWithoutNullStreams) => new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : child.on('close', r)));

describe('kapi-testing serve', () => {
  it('serves the built-in groups and the CRDs given to kubectl, and stops when its stdin closes', { timeout: 60_000 }, async () => {
    const crd = join(dir, 'crd.yaml');
    writeFileSync(
      crd,
      `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.example.com }
spec:
  group: example.com
  scope: Namespaced
  names: { plural: widgets, singular: widget, kind: Widget }
  versions:
  - name: v1
    served: true
    storage: true
    schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } }
`,
    );
    const kubeconfig = join(dir, 'kubeconfig');
    const { child, ready } = await serve(['--crd', crd, '--kubeconfig', kubeconfig, '--exit-with-stdin']);
    expect(ready.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.kubeconfig).toBe(kubeconfig);

    // The CRD is served as soon as the server says it is ready.
    const widget = await run('kubectl', ['--kubeconfig', kubeconfig, 'apply', '-f', '-'], 'apiVersion: example.com/v1\nkind: Widget\nmetadata: { name: w, namespace: default }\nsize: 3\n');
    expect(widget.stderr).toBe('');
    expect(widget.stdout).toContain('widget.example.com/w created');
    const deploy = await run('kubectl', ['--kubeconfig', kubeconfig, 'create', 'deployment', 'web', '--image=nginx']);
    expect(deploy.stdout).toContain('deployment.apps/web created');
    const got = await run('kubectl', ['--kubeconfig', kubeconfig, 'get', 'widgets,deployments', '-o', 'name']);
    expect(got.stdout.split('\n').filter(Boolean).sort()).toEqual(['deployment.apps/web', 'widget.example.com/w']);

    child.stdin.end();
    expect(await exited(child)).toBe(0);
  });

  it('refuses unknown groups, bad ports and files that are not CRDs, with the reason', { timeout: 60_000 }, async () => {
    const notCrd = join(dir, 'cm.yaml');
    writeFileSync(notCrd, 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: x }\n');
    for (const [args, message] of [
      [['--groups', 'apps,nope'], /unknown group nope/],
      [['--port', '99999'], /--port 99999: not a port/],
      [['--crd', notCrd], /a ConfigMap is not a CustomResourceDefinition/],
      [['--plugin', join(dir, 'missing.mjs')], /Cannot find module|ERR_MODULE_NOT_FOUND/],
    ] as const) {
      const res = await run(process.execPath, [CLI, 'serve', ...args]);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(message);
    }
  });
});
