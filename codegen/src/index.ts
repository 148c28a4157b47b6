export { generate, type GenerateOptions } from './generate.js';
export { writeOutputs, type WriteResult } from './writer.js';
export { loadSchemas, withBuiltinSchemas, type LoadOptions } from './model/load.js';
export { initProject, type InitOptions, type InitResult } from './init.js';
export { buildModel, type Model, type TypeDef } from './model/graph.js';
export type { SchemaFile, SchemaNode, SchemaSet, GroupFolder, ResourceHeader } from './model/schema.js';
export { GENERATED_HEADER, type OutputFile } from './output.js';
export { findProjectRoot, findRepoRoot } from './paths.js';
