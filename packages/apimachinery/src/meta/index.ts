export * from './group-version.js';
export { isKubeList, compactListMeta, type KubeObject, type KubeList, type TypeMeta } from './object.js';
export * from './watch.js';
export * from './table.js';
export { cloneJson, dropNulls, getOwn, setOwn } from './own.js';
