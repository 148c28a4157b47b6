import { definitionOf } from '../names.js';
import type { ProtoMessages, SwaggerSchema } from '../types.js';
import { APIDISCOVERY_DOCS } from './apidiscovery.js';
import { definitionFromProto } from './from-proto.js';
import { META_DEFINITIONS, META_DOCS } from './meta.js';
import { TABLE_DEFINITIONS, TABLE_MESSAGES } from './table.js';

/** Upstream's Protobuf messages plus the Kapi-assigned ones (Table). */
export function withSyntheticMessages(messages: ProtoMessages): ProtoMessages {
  return { ...messages, ...TABLE_MESSAGES };
}

/**
 * Swagger-style definitions of the types swagger lacks, so that one conversion handles everything. Swagger's
 * own definitions win when both exist.
 */
export function withSyntheticDefinitions(
  definitions: Record<string, SwaggerSchema>,
  messages: ProtoMessages,
): Record<string, SwaggerSchema> {
  const synthetic: Record<string, SwaggerSchema> = { ...META_DEFINITIONS, ...TABLE_DEFINITIONS };
  for (const [message, doc] of Object.entries({ ...META_DOCS, ...APIDISCOVERY_DOCS })) {
    synthetic[definitionOf(message)] = definitionFromProto(message, messages, doc);
  }
  return { ...synthetic, ...definitions };
}
