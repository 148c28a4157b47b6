import { describe, expect, it } from 'vitest';
import { clientExportName } from '../src/emit/client.js';
import { generate } from '../src/generate.js';
import { loadSchemas } from '../src/model/load.js';
import { fixtureSchemas } from './helpers.js';

describe('the client entry of a group package', () => {
  it('is exported by the package short name, a valid identifier', () => {
    expect(clientExportName('@kapi/api-apps')).toBe('apps');
    expect(clientExportName('@kapi/api-admissionregistration')).toBe('admissionregistration');
    expect(clientExportName('@acme/my-widgets')).toBe('myWidgets');
    expect(clientExportName('shop.example-api')).toBe('shopExampleApi');
    expect(clientExportName('@x/3d-models')).toBe('_3dModels');
  });

  it('lists every resource with its address, scope and subresources, typed by its kind', () => {
    const out = generate(loadSchemas(fixtureSchemas)).find((o) => o.path.endsWith('/src/generated/client.ts'))!;
    expect(out.content).toContain(`import type * as widgets_v1 from './widgets/v1/index.js';`);
    expect(out.content).toContain(
      `"widgets": { group: "widgets.example.com", version: "v1", kind: "Widget", plural: "widgets", namespaced: true, subresources: ["scale","status"] } as Resource<widgets_v1.Widget>,`,
    );
    // No runtime import: the entry loads nothing.
    expect(out.content.split('\n').filter((l) => l.startsWith('import ') && !l.startsWith('import type'))).toEqual([]);
  });
});
