import { it } from 'vitest';
import { group } from '@kapi/api-apps';
import { applyObject, updateManagedFields, serializeFieldsV1, fromFieldsV1 } from './index.js';
it('x', () => {
  const info = group.resources.find((r) => r.kind === 'Deployment')!;
  const meta = { patchMeta: info.patchMeta, fieldTree: group.fieldTree, rootType: 'apps/v1/Deployment' };
  const applied = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { app: 'web' } },
    spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'a', image: 'nginx', ports: [{ containerPort: 80 }] }] } } } };
  const r = applyObject({ live: undefined, applied, manager: 'kubectl', apiVersion: 'apps/v1', force: false, meta, now: '2024-01-01T00:00:00Z' });
  console.log(JSON.stringify(r.object, null, 1));
});
