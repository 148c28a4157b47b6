"""Replaces a Lease with the official Python client: without a resourceVersion (refused, as kube refuses it for
leases), then as read (accepted). Prints JSON."""
import json
import sys

from kubernetes import client, config
from kubernetes.client.rest import ApiException

config.load_kube_config(config_file=sys.argv[1])
api = client.CoordinationV1Api()
ns = sys.argv[2]
api.create_namespaced_lease(ns, client.V1Lease(metadata=client.V1ObjectMeta(name="py-lease"), spec=client.V1LeaseSpec(holder_identity="a")))
out = {}
try:
    api.replace_namespaced_lease("py-lease", ns, client.V1Lease(metadata=client.V1ObjectMeta(name="py-lease"), spec=client.V1LeaseSpec(holder_identity="b")))
    out["withoutVersion"] = "replaced"
except ApiException as e:
    out["withoutVersion"] = {"status": e.status, "message": json.loads(e.body)["message"]}
read = api.read_namespaced_lease("py-lease", ns)
read.spec.holder_identity = "c"
out["asRead"] = api.replace_namespaced_lease("py-lease", ns, read).spec.holder_identity
print(json.dumps(out))
