export { generate, type GenerateOptions } from './generate.js';
export { writeOutputs, type WriteResult } from './writer.js';
export { loadSchemas } from './model/load.js';
export { buildModel, type Model, type TypeDef } from './model/graph.js';
export type { SchemaFile, SchemaNode, SchemaSet, GroupFolder, ResourceHeader } from './model/schema.js';
export { GENERATED_HEADER, type OutputFile } from './output.js';
export { findRepoRoot } from './paths.js';
