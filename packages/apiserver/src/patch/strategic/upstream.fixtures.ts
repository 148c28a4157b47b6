import type { FieldPatchMeta } from '@kapi/apimachinery';

/**
 * Cases from k8s.io/apimachinery's strategicpatch tests (apply half: the patch kubectl computes, applied to the live
 * object), against upstream's MergeItem test type. Inputs and expected results are upstream's, in YAML.
 */
export interface UpstreamCase {
  name: string;
  current: string;
  patch: string;
  result?: string;
  error?: string;
}

/** Patch metadata of upstream's recursive MergeItem / RetainKeysMergeItem test types, by the field's last segment. */
export function mergeItemMeta(path: string): FieldPatchMeta | undefined {
  const field = path.slice(path.lastIndexOf('.') + 1);
  switch (field) {
    case 'mergingList':
    case 'mergeItemPtr':
      return { patchStrategy: 'merge', patchMergeKey: 'name' };
    case 'mergingIntList':
      return { patchStrategy: 'merge' };
    case 'replacingItem':
      return { patchStrategy: 'replace' };
    case 'retainKeysMap':
      return { patchStrategy: 'retainKeys' };
    case 'retainKeysMergingList':
      return { patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' };
    default:
      return undefined;
  }
}

export const upstreamCases: UpstreamCase[] = [
  {
    name: 'add field to map in merging list by pointer with conflict',
    current: `
mergeItemPtr:
  - name: 1
    other: a
    mergeItemPtr:
      - name: 1
        value: a
      - name: 2
        value: 2
        other: b
  - name: 2
    other: b
`,
    patch: `
$setElementOrder/mergeItemPtr:
  - name: 1
  - name: 2
mergeItemPtr:
  - $setElementOrder/mergeItemPtr:
      - name: 1
      - name: 2
    name: 1
    mergeItemPtr:
      - name: 1
        value: 1
`,
    result: `
mergeItemPtr:
  - name: 1
    other: a
    mergeItemPtr:
      - name: 1
        value: 1
      - name: 2
        value: 2
        other: b
  - name: 2
    other: b
`,
  },
  {
    name: 'merge lists of scalars',
    current: 'mergingIntList: [1, 2, 4]',
    patch: '{$setElementOrder/mergingIntList: [1, 2, 3], mergingIntList: [3]}',
    result: 'mergingIntList: [1, 2, 3, 4]',
  },
  {
    name: 'add an item in a list of primitives and preserve order',
    current: 'mergingIntList: [1, 4, 2]',
    patch: '{$setElementOrder/mergingIntList: [3, 1, 2], mergingIntList: [3]}',
    result: 'mergingIntList: [3, 1, 4, 2]',
  },
  {
    name: 'delete an item in a list of primitives and preserve order',
    current: 'mergingIntList: [1, 2, 3]',
    patch: '{$setElementOrder/mergingIntList: [2, 1], $deleteFromPrimitiveList/mergingIntList: [3]}',
    result: 'mergingIntList: [2, 1]',
  },
  {
    name: 'add and delete an item in a int list and preserve order',
    current: 'mergingIntList: [1, 2, 3]',
    patch:
      '{$setElementOrder/mergingIntList: [4, 2, 1], mergingIntList: [4], $deleteFromPrimitiveList/mergingIntList: [3]}',
    result: 'mergingIntList: [4, 2, 1]',
  },
  {
    name: 'set elements order in a int list with server-only items',
    current: 'mergingIntList: [1, 3, 4, 2, 9]',
    patch: '{$setElementOrder/mergingIntList: [4, 2, 3, 1]}',
    result: 'mergingIntList: [4, 2, 3, 1, 9]',
  },
  {
    name: 'set elements order in a int list with server-only items 2',
    current: 'mergingIntList: [1, 2, 9, 3, 4]',
    patch: '{$setElementOrder/mergingIntList: [2, 1, 4, 3]}',
    result: 'mergingIntList: [2, 1, 9, 4, 3]',
  },
  {
    name: 'set elements order in a int list with server-only items 3',
    current: 'mergingIntList: [1, 2, 7, 9, 8, 3, 4]',
    patch: '{$setElementOrder/mergingIntList: [2, 1, 4, 3]}',
    result: 'mergingIntList: [2, 1, 7, 9, 8, 4, 3]',
  },
  {
    name: 'add multiple items in a int list and preserve order',
    current: 'mergingIntList: [1, 2]',
    patch: '{$setElementOrder/mergingIntList: [1, 4, 2, 3], mergingIntList: [4, 3]}',
    result: 'mergingIntList: [1, 4, 2, 3]',
  },
  {
    name: 'behavior of set element order for a merging int list with duplicate',
    current: 'mergingIntList: [1, 2, 3, 2, 4]',
    patch: '{$setElementOrder/mergingIntList: [2, 1, 4, 3, 2]}',
    result: 'mergingIntList: [2, 2, 1, 4, 3]',
  },
  {
    name: 'add an item in a list and preserve order',
    current: `
mergingList:
  - {name: 1, other: a}
  - {name: 2, value: 2, other: b}
`,
    patch: `
$setElementOrder/mergingList: [{name: 3}, {name: 1}, {name: 2}]
mergingList: [{name: 3, value: 3}]
`,
    result: `
mergingList:
  - {name: 3, value: 3}
  - {name: 1, other: a}
  - {name: 2, value: 2, other: b}
`,
  },
  {
    name: 'add multiple items in a list and preserve order',
    current: `
mergingList:
  - {name: 1, other: a}
  - {name: 2, value: 2, other: b}
`,
    patch: `
$setElementOrder/mergingList: [{name: 1}, {name: 4}, {name: 2}, {name: 3}]
mergingList: [{name: 4, value: 4}, {name: 3, value: 3}]
`,
    result: `
mergingList:
  - {name: 1, other: a}
  - {name: 4, value: 4}
  - {name: 2, value: 2, other: b}
  - {name: 3, value: 3}
`,
  },
  {
    name: 'delete an item in a list and preserve order',
    current: `
mergingList:
  - {name: 1, other: a}
  - {name: 2, value: 2, other: b}
  - {name: 3, value: 3}
`,
    patch: `
$setElementOrder/mergingList: [{name: 2}, {name: 1}]
mergingList: [{name: 3, $patch: delete}]
`,
    result: `
mergingList:
  - {name: 2, value: 2, other: b}
  - {name: 1, other: a}
`,
  },
  {
    name: 'change an item in a list and preserve order',
    current: `
mergingList:
  - {name: 1, other: a}
  - {name: 2, value: 2, other: b}
  - {name: 3, value: 3}
`,
    patch: `
$setElementOrder/mergingList: [{name: 2}, {name: 3}, {name: 1}]
mergingList: [{name: 3, value: x}]
`,
    result: `
mergingList:
  - {name: 2, value: 2, other: b}
  - {name: 3, value: x}
  - {name: 1, other: a}
`,
  },
  {
    name: 'add and delete an item in a list and preserve order',
    current: `
mergingList:
  - {name: 1, other: a}
  - {name: 2, value: 2, other: b}
  - {name: 3, value: 3}
`,
    patch: `
$setElementOrder/mergingList: [{name: 4}, {name: 2}, {name: 1}]
mergingList: [{name: 4, value: 4}, {name: 3, $patch: delete}]
`,
    result: `
mergingList:
  - {name: 4, value: 4}
  - {name: 2, value: 2, other: b}
  - {name: 1, other: a}
`,
  },
  {
    name: 'set elements order in a list with server-only items 2',
    current: `
mergingList:
  - {name: 1, other: a}
  - {name: 2, value: 2}
  - {name: 9}
  - {name: 3, value: 3}
  - {name: 4, value: 4}
`,
    patch: '$setElementOrder/mergingList: [{name: 2}, {name: 1}, {name: 4}, {name: 3}]',
    result: `
mergingList:
  - {name: 2, value: 2}
  - {name: 1, other: a}
  - {name: 9}
  - {name: 4, value: 4}
  - {name: 3, value: 3}
`,
  },
  {
    name: 'set elements order in a list with server-only items 3',
    current: `
mergingList:
  - {name: 1, other: a}
  - {name: 2, value: 2}
  - {name: 7}
  - {name: 9}
  - {name: 8}
  - {name: 3, value: 3}
  - {name: 4, value: 4}
`,
    patch: '$setElementOrder/mergingList: [{name: 2}, {name: 1}, {name: 4}, {name: 3}]',
    result: `
mergingList:
  - {name: 2, value: 2}
  - {name: 1, other: a}
  - {name: 7}
  - {name: 9}
  - {name: 8}
  - {name: 4, value: 4}
  - {name: 3, value: 3}
`,
  },
  {
    name: 'behavior of set element order for a merging list with duplicate',
    current: `
mergingList:
  - {name: 1}
  - {name: 2, value: dup1}
  - {name: 3}
  - {name: 2, value: dup2}
  - {name: 4}
`,
    patch: '$setElementOrder/mergingList: [{name: 2}, {name: 1}, {name: 4}, {name: 3}, {name: 2}]',
    result: `
mergingList:
  - {name: 2, value: dup1}
  - {name: 2, value: dup2}
  - {name: 1}
  - {name: 4}
  - {name: 3}
`,
  },
  {
    name: 'delete and reorder in one list, reorder in another',
    current: `
mergingList: [{name: a, value: a}, {name: b, value: b}]
mergeItemPtr: [{name: c, value: c}, {name: d, value: d}]
`,
    patch: `
$setElementOrder/mergingList: [{name: b}]
$setElementOrder/mergeItemPtr: [{name: d}, {name: c}]
mergingList: [{$patch: delete, name: a}]
`,
    result: `
mergingList: [{name: b, value: b}]
mergeItemPtr: [{name: d, value: d}, {name: c, value: c}]
`,
  },
  {
    name: 'retainKeys map should clear defaulted field with conflict (discriminated union)',
    current: 'retainKeysMap: {name: type1, value: foo}',
    patch: 'retainKeysMap: {$retainKeys: [name, other], name: type2, other: bar}',
    result: 'retainKeysMap: {name: type2, other: bar}',
  },
  {
    name: 'retainKeys map clears a field',
    current: 'retainKeysMap: {name: foo, value: bar, other: a}',
    patch: 'retainKeysMap: {$retainKeys: [name, value]}',
    result: 'retainKeysMap: {name: foo, value: bar}',
  },
  {
    name: 'retainKeys map deletes a field in a nested map',
    current: 'retainKeysMap: {name: foo, value: bar, simpleMap: {key1: a, key2: b, key3: c}}',
    patch: 'retainKeysMap: {$retainKeys: [name, simpleMap, value], simpleMap: {key2: null}}',
    result: 'retainKeysMap: {name: foo, value: bar, simpleMap: {key1: a, key3: c}}',
  },
  {
    name: 'retainKeys map nested merging int list with no change',
    current: 'retainKeysMap: {name: foo, mergingIntList: [1, 2, 3]}',
    patch: `
retainKeysMap:
  $retainKeys: [mergingIntList, name, value]
  $setElementOrder/mergingIntList: [1, 2]
  value: bar
`,
    result: 'retainKeysMap: {name: foo, value: bar, mergingIntList: [1, 2, 3]}',
  },
  {
    name: 'retainKeys map adds an item in nested merging int list',
    current: 'retainKeysMap: {name: foo, mergingIntList: [1, 2, 3]}',
    patch: `
retainKeysMap:
  $setElementOrder/mergingIntList: [1, 2, 4]
  $retainKeys: [mergingIntList, name]
  mergingIntList: [4]
`,
    result: 'retainKeysMap: {name: foo, mergingIntList: [1, 2, 4, 3]}',
  },
  {
    name: 'retainKeys map adds an item and deletes an item in nested merging int list',
    current: 'retainKeysMap: {name: foo, mergingIntList: [1, 2, 3, 4]}',
    patch: `
retainKeysMap:
  $retainKeys: [mergingIntList, name]
  mergingIntList: [5]
  $deleteFromPrimitiveList/mergingIntList: [2]
  $setElementOrder/mergingIntList: [1, 3, 5]
`,
    result: 'retainKeysMap: {name: foo, mergingIntList: [1, 3, 5, 4]}',
  },
  {
    name: 'retainKeys map deletes nested merging list',
    current: 'retainKeysMap: {name: foo, mergingList: [{name: a}, {name: b}]}',
    patch: 'retainKeysMap: {$retainKeys: [name, value], value: bar, mergingList: null}',
    result: 'retainKeysMap: {name: foo, value: bar}',
  },
  {
    name: 'retainKeys map deletes an item in nested merging list',
    current: 'retainKeysMap: {name: foo, mergingList: [{name: a}, {name: b}, {name: x}]}',
    patch: `
retainKeysMap:
  $retainKeys: [mergingList, name]
  $setElementOrder/mergingList: [{name: a}]
  mergingList: [{name: b, $patch: delete}]
`,
    result: 'retainKeysMap: {name: foo, mergingList: [{name: a}, {name: x}]}',
  },
  {
    name: 'retainKeys list of maps clears a field',
    current: 'retainKeysMergingList: [{name: bar}, {name: foo, value: a, other: x}]',
    patch: `
$setElementOrder/retainKeysMergingList: [{name: bar}, {name: foo}]
retainKeysMergingList: [{$retainKeys: [name, value], name: foo}]
`,
    result: 'retainKeysMergingList: [{name: bar}, {name: foo, value: a}]',
  },
  {
    name: 'retainKeys list of maps deletes a field and clear a field',
    current: 'retainKeysMergingList: [{name: bar}, {name: foo, value: a, other: x}]',
    patch: `
$setElementOrder/retainKeysMergingList: [{name: bar}, {name: foo}]
retainKeysMergingList: [{$retainKeys: [name], name: foo, value: null}]
`,
    result: 'retainKeysMergingList: [{name: bar}, {name: foo}]',
  },
  // Custom cases: patches kubectl does not generate but older clients and users send.
  {
    name: 'unique scalars when merging lists',
    current: 'mergingIntList: [1, 2]',
    patch: 'mergingIntList: [2, 3]',
    result: 'mergingIntList: [1, 2, 3]',
  },
  {
    name: 'delete map from nested map',
    current: 'simpleMap: {key1: 1, key2: 1}',
    patch: 'simpleMap: {$patch: delete}',
    result: 'simpleMap: {}',
  },
  {
    name: 'delete all items from merging list',
    current: 'mergingList: [{name: 1}, {name: 2}]',
    patch: 'mergingList: [{$patch: replace}]',
    result: 'mergingList: []',
  },
  {
    name: 'merge empty merging lists',
    current: 'mergingList: []',
    patch: 'mergingList: []',
    result: 'mergingList: []',
  },
  { name: 'delete all keys from map', current: '{name: 1, value: 1}', patch: '{$patch: replace}', result: '{}' },
  {
    name: 'add key and delete all keys from map',
    current: '{name: 1, value: 1}',
    patch: '{other: a, $patch: replace}',
    result: '{other: a}',
  },
  {
    name: 'delete all duplicate entries in a merging list',
    current: 'mergingList: [{name: 1}, {name: 1}, {name: 2, value: a}, {name: 3}, {name: 3}]',
    patch: 'mergingList: [{name: 1, $patch: delete}, {name: 3, $patch: delete}]',
    result: 'mergingList: [{name: 2, value: a}]',
  },
  {
    name: 'retainKeys map can delete a field when no retainKeys directive present',
    current: 'retainKeysMap: {name: foo, value: a}',
    patch: 'retainKeysMap: {value: null}',
    result: 'retainKeysMap: {name: foo}',
  },
  {
    name: 'retainKeys list can change a field when no retainKeys directive present',
    current: 'retainKeysMergingList: [{name: bar}, {name: foo, value: a}]',
    patch: 'retainKeysMergingList: [{name: foo, value: b}]',
    result: 'retainKeysMergingList: [{name: bar}, {name: foo, value: b}]',
  },
  {
    name: 'preserve the order from the patch in a merging list',
    current: 'mergingList: [{name: 1}, {name: 2, value: b}, {name: 3}]',
    patch: 'mergingList: [{name: 3, value: c}, {name: 1, value: a}, {name: 2, other: x}]',
    result: 'mergingList: [{name: 3, value: c}, {name: 1, value: a}, {name: 2, value: b, other: x}]',
  },
  {
    name: 'preserve the order from the patch in a merging list 2',
    current: 'mergingList: [{name: 1}, {name: 2, value: b}, {name: 3}]',
    patch: 'mergingList: [{name: 3, value: c}, {name: 1, value: a}]',
    result: 'mergingList: [{name: 2, value: b}, {name: 3, value: c}, {name: 1, value: a}]',
  },
  {
    name: 'preserve the order from the patch in a merging int list',
    current: 'mergingIntList: [1, 2, 3]',
    patch: 'mergingIntList: [3, 1]',
    result: 'mergingIntList: [2, 3, 1]',
  },
  {
    name: '$setElementOrder contains item that is not present in the list to be merged',
    current: 'mergingList: [{name: 1}, {name: 3}]',
    patch: `
$setElementOrder/mergingList: [{name: 3}, {name: 2}, {name: 1}]
mergingList: [{name: 3, value: 3}, {name: 1, value: 1}]
`,
    result: 'mergingList: [{name: 3, value: 3}, {name: 1, value: 1}]',
  },
  {
    name: '$setElementOrder contains item that is not present in the int list to be merged',
    current: 'mergingIntList: [1, 3]',
    patch: '$setElementOrder/mergingIntList: [3, 2, 1]',
    result: 'mergingIntList: [3, 1]',
  },
  {
    name: 'should check if order in $setElementOrder and patch list match',
    current: 'mergingList: [{name: 1}, {name: 3}, {name: 2}]',
    patch: `
$setElementOrder/mergingList: [{name: 1}, {name: 2}, {name: 3}]
mergingList: [{name: 3, value: 3}, {name: 1, value: 1}]
`,
    error: "doesn't match",
  },
  {
    name: 'should check if order in $setElementOrder and patch int list match',
    current: 'mergingIntList: [1, 3, 2]',
    patch: '{$setElementOrder/mergingIntList: [1, 2, 3], mergingIntList: [3, 1]}',
    error: "doesn't match",
  },
  {
    name: 'missing merge key should error out',
    current: 'mergingList: [{name: 1, value: a}]',
    patch: 'mergingList: [{value: b}]',
    error: 'does not contain declared merge key',
  },
  {
    name: '$deleteFromPrimitiveList of nonexistent item in primitive list should not add the item to the list',
    current: 'mergingIntList: [1, 2]',
    patch: '$deleteFromPrimitiveList/mergingIntList: [3]',
    result: 'mergingIntList: [1, 2]',
  },
  {
    name: '$deleteFromPrimitiveList on empty primitive list should not add the item to the list',
    current: 'mergingIntList:',
    patch: '$deleteFromPrimitiveList/mergingIntList: [3]',
    result: 'mergingIntList:',
  },
  {
    name: '$deleteFromPrimitiveList on nonexistent primitive list should not add the primitive list',
    current: 'foo: [bar]',
    patch: '$deleteFromPrimitiveList/mergingIntList: [3]',
    result: 'foo: [bar]',
  },
  {
    name: '$deleteFromPrimitiveList should delete item from a list without merge patch strategy',
    current: 'nonMergingIntList: [1, 2, 3]',
    patch: '$deleteFromPrimitiveList/nonMergingIntList: [2]',
    result: 'nonMergingIntList: [1, 3]',
  },
  {
    name: 'replace RawExtension field and merge list',
    current: `
name: my-object
mergingList: [{name: 1}, {name: 3}]
replacingItem: {Some: Generic, Yaml: Inside, The: RawExtension, Field: Period}
`,
    patch: `
$setElementOrder/mergingList: [{name: 1}, {name: 2}]
mergingList: [{name: 2}]
replacingItem: {Newly: Modified, Yaml: Inside, The: RawExtension}
`,
    result: `
name: my-object
mergingList: [{name: 1}, {name: 2}, {name: 3}]
replacingItem: {Newly: Modified, Yaml: Inside, The: RawExtension}
`,
  },
  // Unknown fields: nulls in content the live object lacks are discarded, nulls already stored are kept.
  {
    name: 'discard nulls in nested and adds not nulls',
    current: '{name: foo}',
    patch: '{complex_nullable: {key: {keynotnull: value, keynull: null}}}',
    result: '{name: foo, complex_nullable: {key: {keynotnull: value}}}',
  },
  { name: 'discard if modified all nulls', current: '{}', patch: '{complex: {nested: null}}', result: '{complex: {}}' },
  {
    name: 'nested null values in original are preserved',
    current: '{complex: {key: null}, thing: null}',
    patch: '{nested: {value: 5}}',
    result: '{complex: {key: null}, nested: {value: 5}, thing: null}',
  },
  {
    name: 'filter nulls from nested slices',
    current: '{}',
    patch: '{complex_nullable: [{inner_one: {key_one: foo, key_two: null}}]}',
    result: '{complex_nullable: [{inner_one: {key_one: foo}}]}',
  },
  {
    name: 'not filter nulls from non-associative slice',
    current: '{}',
    patch: '{complex_nullable: [key1, null, key2]}',
    result: '{complex_nullable: [key1, null, key2]}',
  },
  {
    name: 'removed only',
    current: '{name: foo, scalar: true, complex: {nested: true}, array: [1, 2, 3]}',
    patch: '{complex: null, scalar: null}',
    result: '{array: [1, 2, 3], name: foo}',
  },
];
