import { describe, expect, it, beforeAll } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { toYaml } from '@kapi/apiserver';
import {
  createMessageCodec,
  decodeEnvelope,
  encodeEnvelope,
  orderKeys,
  type GroupDefinition,
  type MessageCodec,
  type ResourceInfo,
} from '@kapi/apimachinery';
import { loadGroups } from '../src/groups.js';

// Upstream golden objects (copied from Kubernetes' reference data): one object as .json, .yaml and .pb.
const fixturesDir = join(import.meta.dirname, 'fixtures');
// Fixtures not yet matched, with the reason.
const PENDING: Record<string, string> = {};
// Go's encoding/json (kube's JSON writer) escapes `<`, `>`, `&`, U+2028 and U+2029 in strings; JSON.stringify does not.
const goEscaped = (text: string): string => text.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const names = readdirSync(fixturesDir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length))
  .filter((n) => !(n in PENDING))
  .sort();

describe('upstream wire fixtures', () => {
  let groups: GroupDefinition[];
  const codecs = new Map<GroupDefinition, MessageCodec>();
  beforeAll(async () => {
    groups = await loadGroups();
  });

  const lookup = (apiVersion: string, kind: string): { info: ResourceInfo; codec: MessageCodec; group: GroupDefinition } => {
    for (const g of groups) {
      const info = g.resources.find((r) => (r.group ? `${r.group}/${r.version}` : r.version) === apiVersion && r.kind === kind);
      if (info) {
        if (!codecs.has(g)) codecs.set(g, createMessageCodec(g.protobuf));
        return { info, codec: codecs.get(g)!, group: g };
      }
    }
    throw new Error(`no generated group serves ${apiVersion} ${kind}`);
  };

  it('covers every fixture kind but the pending ones', () => {
    expect(names.length).toBeGreaterThanOrEqual(61);
    for (const pending of Object.keys(PENDING)) expect(existsSync(join(fixturesDir, `${pending}.json`))).toBe(true);
  });

  for (const name of names) {
    const json = JSON.parse(readFileSync(join(fixturesDir, `${name}.json`), 'utf8'));
    const pb = new Uint8Array(readFileSync(join(fixturesDir, `${name}.pb`)));
    const yamlText = readFileSync(join(fixturesDir, `${name}.yaml`), 'utf8');
    const jsonText = readFileSync(join(fixturesDir, `${name}.json`), 'utf8');
    const { apiVersion, kind, ...body } = json;

    describe(name, () => {
      it('decoding the .pb gives exactly the .json object', () => {
        const envelope = decodeEnvelope(pb);
        expect(envelope.typeMeta).toEqual({ apiVersion, kind });
        const { info, codec } = lookup(apiVersion, kind);
        const decoded = codec.decode(info.protobuf.message, envelope.raw);
        expect({ apiVersion, kind, ...decoded }).toEqual(json);
      });

      it('encoding the .json gives byte-identical .pb', () => {
        const { info, codec } = lookup(apiVersion, kind);
        const raw = codec.encode(info.protobuf.message, body);
        const bytes = encodeEnvelope({ apiVersion, kind }, raw);
        expect(Buffer.from(bytes).toString('hex')).toBe(Buffer.from(pb).toString('hex'));
      });

      it('the .yaml parses to the same object', () => {
        expect(parseYaml(yamlText)).toEqual(json);
      });

      it('the object decoded from the .pb, in kube\'s JSON key order, is the .json text byte for byte', () => {
        const { info, codec, group } = lookup(apiVersion, kind);
        const decoded = { apiVersion, kind, ...codec.decode(info.protobuf.message, decodeEnvelope(pb).raw) };
        orderKeys(group.fieldTree, `${apiVersion}/${kind}`, decoded);
        expect(goEscaped(JSON.stringify(decoded, null, 2))).toBe(jsonText.trimEnd());
      });

      it('the .json object written as kube\'s YAML is the .yaml text byte for byte', () => {
        expect(toYaml(JSON.parse(jsonText))).toBe(yamlText);
      });
    });
  }
});
