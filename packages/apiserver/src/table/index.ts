export { buildTable, tableColumns, tableCells, columnCell, type BuildTableOptions } from './table.js';
export { evaluateJSONPath, parseJSONPath, JSONPathError, type CompiledJSONPath } from './jsonpath.js';
export { jsonPathText, goJSON, goFloat } from './go-text.js';
