export { buildTable, tableColumns, tableCells, columnCell, type BuildTableOptions } from './table.js';
export { evaluateJSONPath, parseJSONPath, JSONPathError, type CompiledJSONPath } from './jsonpath.js';
export { builtinPrinter, builtinCell, type BuiltinPrinter, type CellComputer } from './builtin-printers.js';
export { humanDuration, ageSince } from './human-duration.js';
export { jsonPathText, goJSON, goFloat } from './go-text.js';
