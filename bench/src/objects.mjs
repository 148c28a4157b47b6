// The objects every scenario and baseline uses: ConfigMaps whose data is 1 KiB.

/** 1 KiB of data: 4 keys of 256 printable characters, the same for every object. */
export function configMapData(bytes = 1024) {
  const data = {};
  const keys = 4;
  const size = Math.max(1, Math.round(bytes / keys));
  for (let k = 0; k < keys; k++) {
    let value = '';
    for (let c = 0; c < size; c++) value += String.fromCharCode(97 + ((k * 7 + c * 13) % 26));
    data[`key-${String(k).padStart(2, '0')}`] = value;
  }
  return data;
}

/** A create body as two halves around the name, so a driver makes each body with one concatenation. */
export function configMapTemplate(namespace, dataBytes = 1024) {
  const marker = '@@NAME@@';
  const text = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: marker, namespace }, data: configMapData(dataBytes) });
  const [head, tail] = text.split(marker);
  return { head, tail };
}

/** A ConfigMap as the server returns it (metadata filled in, managedFields of a create), for the codec baseline. */
export function storedConfigMap(namespace, name, resourceVersion = 123456) {
  const data = configMapData();
  const fieldsV1 = { 'f:data': Object.fromEntries([['.', {}], ...Object.keys(data).map((k) => [`f:${k}`, {}])]) };
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      namespace,
      uid: '54b0f619-0d34-4208-9804-e265c278093b',
      resourceVersion: String(resourceVersion),
      creationTimestamp: '2026-01-01T00:00:00Z',
      managedFields: [
        { manager: 'undici', operation: 'Update', apiVersion: 'v1', time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1 },
      ],
    },
    data,
  };
}

/** A ConfigMapList of n stored ConfigMaps. */
export function storedConfigMapList(namespace, n) {
  const items = [];
  for (let i = 0; i < n; i++) {
    const { apiVersion, kind, ...rest } = storedConfigMap(namespace, `cm-${String(i).padStart(6, '0')}`, 1000 + i);
    items.push({ apiVersion, kind, ...rest });
  }
  return { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: String(1000 + n) }, items };
}

/** Exactly `bytes` bytes of JSON (B1's fixed body). */
export function fixedJson(bytes = 1024) {
  const shell = JSON.stringify({ kind: 'Fixed', apiVersion: 'bench/v1', pad: '' });
  return Buffer.from(JSON.stringify({ kind: 'Fixed', apiVersion: 'bench/v1', pad: 'x'.repeat(bytes - shell.length) }));
}
