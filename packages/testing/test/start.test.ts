import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../src/index.js';

describe('startTestServer', () => {
  it('writes a kubeconfig for its HTTPS URL, and removes it on stop (twice is fine)', async () => {
    const server = await startTestServer();
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(readFileSync(server.kubeconfig!, 'utf8')).toContain(`server: ${server.url}`);
    await server.stop();
    await server.stop();
    expect(existsSync(server.kubeconfig!)).toBe(false);
  });

  it('gives each test a namespace of its own, created through the real API', async () => {
    const server = await startTestServer({ listen: false });
    try {
      const [a, b] = await Promise.all([server.createNamespace('t'), server.createNamespace('t')]);
      expect(a).not.toBe(b);
      expect(a).toMatch(/^t-[0-9a-f]{8}$/);
      const list = (await (await server.fetch('/api/v1/namespaces')).json()) as { items: { metadata: { name: string } }[] };
      expect(list.items.map((n) => n.metadata.name)).toEqual(expect.arrayContaining([a, b, 'default', 'kube-system']));
      await expect(server.createNamespace('Bad_Prefix')).rejects.toThrow(/creating namespace Bad_Prefix-[0-9a-f]{8}: 422/);
    } finally {
      await server.stop();
    }
  });

  it('creates the CRDs it is given and hands the server over once they are served', async () => {
    const crd = (name: string, openAPIV3Schema: object) => ({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `${name}s.example.com` },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: `${name}s`, singular: name, kind: name[0].toUpperCase() + name.slice(1) },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema } }],
      },
    });
    const server = await startTestServer({ listen: false, crds: [crd('widget', { type: 'object', 'x-kubernetes-preserve-unknown-fields': true })] });
    try {
      const res = await server.fetch('/apis/example.com/v1/namespaces/default/widgets', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, size: 3 }),
      });
      expect(res.status).toBe(201);
    } finally {
      await server.stop();
    }
    // A CRD the server refuses fails the start with its message.
    await expect(startTestServer({ listen: false, crds: [crd('gadget', { type: 'string' })] })).rejects.toThrow(/CustomResourceDefinition gadgets.example.com: 422/);
  });
});
