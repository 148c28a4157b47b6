"""Drives kapi-server's custom resources with the official Python client's CustomObjectsApi. Prints JSON."""
import json
import sys

from kubernetes import client, config
from kubernetes.client.rest import ApiException

config.load_kube_config(config_file=sys.argv[1])
namespace = sys.argv[2]
api = client.CustomObjectsApi()
G, V, P = "stable.example.com", "v1", "crontabs"
out = {}
body = {"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "py", "labels": {"client": "python"}},
        "spec": {"cronSpec": "*/5 * * * *", "image": "py-image"}}
created = api.create_namespaced_custom_object(G, V, namespace, P, body)
out["created"] = {"name": created["metadata"]["name"], "replicas": created["spec"].get("replicas"), "generation": created["metadata"]["generation"]}
got = api.get_namespaced_custom_object(G, V, namespace, P, "py")
out["got"] = got["spec"]
listed = api.list_namespaced_custom_object(G, V, namespace, P, label_selector="client=python")
out["listed"] = [o["metadata"]["name"] for o in listed["items"]]
# A dict body is a merge patch for custom objects.
patched = api.patch_namespaced_custom_object(G, V, namespace, P, "py", {"spec": {"image": "patched"}})
out["patched"] = {"image": patched["spec"]["image"], "generation": patched["metadata"]["generation"]}
status = api.patch_namespaced_custom_object_status(G, V, namespace, P, "py", {"status": {"replicas": 3}})
out["status"] = status.get("status")
scale = api.get_namespaced_custom_object_scale(G, V, namespace, P, "py")
out["scale"] = {"kind": scale["kind"], "spec": scale["spec"], "status": scale["status"]}
# Read, change, replace: the whole object goes back.
current = api.get_namespaced_custom_object(G, V, namespace, P, "py")
current["spec"]["image"] = "replaced"
replaced = api.replace_namespaced_custom_object(G, V, namespace, P, "py", current)
out["replaced"] = replaced["spec"]["image"]
try:
    api.create_namespaced_custom_object(G, V, namespace, P, {**body, "metadata": {"name": "bad"}, "spec": {"replicas": 99}})
    out["invalid"] = None
except ApiException as e:
    out["invalid"] = {"status": e.status, "message": json.loads(e.body)["message"]}
api.delete_namespaced_custom_object(G, V, namespace, P, "py")
out["afterDelete"] = [o["metadata"]["name"] for o in api.list_namespaced_custom_object(G, V, namespace, P)["items"]]
print(json.dumps(out))
