/** kube's answer to a subresource POST that creates nothing to return (an eviction, a binding): a Success Status, 201. */
export const createdStatus = () => ({ status: 201, object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } });
