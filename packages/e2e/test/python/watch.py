"""The Python client's watch against kapi-server: resume with resource_version and timeout_seconds, bookmarks,
and (mode "gone") the 410 an expired resource_version gets. Prints what it saw as JSON."""
import json
import sys
import time

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

kubeconfig, mode = sys.argv[1], sys.argv[2]
config.load_kube_config(config_file=kubeconfig)
v1 = client.CoreV1Api()
NS = "default"


def cm(name, data=None):
    return client.V1ConfigMap(metadata=client.V1ObjectMeta(name=name), data=data or {"k": "v"})


def stream(**kwargs):
    seen = []
    for event in watch.Watch().stream(v1.list_namespaced_config_map, NS, **kwargs):
        obj = event["object"]
        name = obj["metadata"].get("name") if isinstance(obj, dict) else obj.metadata.name
        seen.append("%s %s" % (event["type"], name))
    return seen


if mode == "resume":
    v1.create_namespaced_config_map(NS, cm("py-w1"))
    rv = v1.list_namespaced_config_map(NS).metadata.resource_version
    v1.create_namespaced_config_map(NS, cm("py-w2"))
    v1.patch_namespaced_config_map("py-w1", NS, {"data": {"k": "changed"}})
    v1.delete_namespaced_config_map("py-w2", NS)
    after = stream(resource_version=rv, timeout_seconds=2)
    bookmarks = stream(resource_version=rv, timeout_seconds=1, allow_watch_bookmarks=True)
    print(json.dumps({"after": after, "bookmarks": bookmarks}))
elif mode == "gone":
    old = v1.create_namespaced_config_map(NS, cm("py-old")).metadata.resource_version
    status = None
    deadline = time.time() + 60
    while status is None and time.time() < deadline:
        v1.patch_namespaced_config_map("py-old", NS, {"data": {"t": str(time.time())}})
        try:
            stream(resource_version=old, timeout_seconds=1)
        except ApiException as e:
            status = {"status": e.status, "reason": e.reason}
        time.sleep(0.2)
    print(json.dumps(status))
