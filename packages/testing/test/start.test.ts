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
});
