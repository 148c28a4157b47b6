export { age, ageSince, humanDuration, parseTimestamp } from './duration.js';
export { formatLabels, formatLabelSelector, selectorString } from './labels.js';
export type { CellComputer, TablePrinter } from './types.js';
export { asObj, asObjects, at, int, intOrString, isObj, keyCount, listAt, objAt, orNone, sortedUnique, str, textAt, type Obj } from './values.js';
