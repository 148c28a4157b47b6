import { describe, expect, it } from 'vitest';
import { createMessageCodec, decodeEnvelope, encodeEnvelope, type GroupDefinition } from '@kapi/apimachinery';
import { loadGroups, repoModel } from '../src/groups.js';
import { sampleObject } from '../src/sample.js';

const model = repoModel();
const groups: GroupDefinition[] = await loadGroups(model);
const kindFiles = [...model.set.files.values()].filter((f) => f.schema['x-kapi-resource']);
// Kinds not yet round-tripping (`<apiVersion> <kind>`).
const PENDING = new Set<string>([]);

describe('every kind of every group survives JSON → Protobuf → JSON', () => {
  it('finds the generated groups and kinds', () => {
    expect(groups.length).toBeGreaterThanOrEqual(9);
    expect(kindFiles.length).toBeGreaterThanOrEqual(25);
  });

  for (const file of kindFiles) {
    const header = file.schema['x-kapi-resource']!;
    const apiVersion = header.group ? `${header.group}/${header.version}` : header.version;
    it.skipIf(PENDING.has(`${apiVersion} ${header.kind}`))(`${apiVersion} ${header.kind}`, () => {
      const group = groups.find((g) => g.resources.some((r) => r.kind === header.kind && r.group === header.group));
      expect(group, `a generated package serves ${apiVersion} ${header.kind}`).toBeDefined();
      const info = group!.resources.find((r) => r.kind === header.kind && r.version === header.version)!;
      const codec = createMessageCodec(group!.protobuf);
      const object = sampleObject(model, file);
      expect(Object.keys(object).length).toBeGreaterThan(0);

      const raw = codec.encode(info.protobuf.message, object);
      const envelope = decodeEnvelope(encodeEnvelope({ apiVersion, kind: header.kind }, raw));
      expect(envelope.typeMeta).toEqual({ apiVersion, kind: header.kind });
      expect(codec.decode(info.protobuf.message, envelope.raw)).toEqual(object);

      const list = { metadata: { resourceVersion: '12', continue: 'token' }, items: [object, object] };
      expect(codec.decode(info.protobuf.listMessage, codec.encode(info.protobuf.listMessage, list))).toEqual(list);
    });
  }
});
