type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

interface CRD {
  metadata?: { name?: string };
  spec?: { group?: string; names?: { plural?: string }; versions?: { name?: string; served?: boolean }[] };
}

/**
 * Creates the CustomResourceDefinitions and waits until every served version of each answers a list, so a test can
 * use its kinds at once. A CRD the server refuses fails with the server's message.
 */
export async function installCRDs(fetch: Fetch, crds: object[], timeoutMs = 30_000): Promise<void> {
  for (const crd of crds as CRD[]) {
    const res = await fetch('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(crd),
    });
    if (res.status !== 201) throw new Error(`creating CustomResourceDefinition ${crd.metadata?.name ?? '(unnamed)'}: ${res.status} ${await res.text()}`);
  }
  const deadline = Date.now() + timeoutMs;
  for (const crd of crds as CRD[]) {
    const { group, names, versions = [] } = crd.spec ?? {};
    for (const v of versions.filter((v) => v.served !== false)) {
      const path = `/apis/${group}/${v.name}/${names?.plural}?limit=1`;
      while ((await fetch(path)).status !== 200) {
        if (Date.now() > deadline) throw new Error(`CustomResourceDefinition ${crd.metadata?.name}: ${path} not served after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  }
}
