"""Drives kapi-server with the official Python client: list, create without kind, read, delete. Prints JSON."""
import json
import sys

from kubernetes import client, config

config.load_kube_config(config_file=sys.argv[1])
core = client.CoreV1Api()
out = {}
out["namespaces"] = sorted(ns.metadata.name for ns in core.list_namespace().items)
# The body carries no kind or apiVersion: the server fills them in.
body = {"metadata": {"name": "from-python", "labels": {"client": "python"}}, "data": {"lang": "python"}}
created = core.create_namespaced_config_map("default", body)
out["created"] = {"kind": created.kind, "apiVersion": created.api_version, "name": created.metadata.name,
                  "uid": bool(created.metadata.uid), "data": created.data}
read = core.read_namespaced_config_map("from-python", "default")
out["read"] = {"resourceVersion": read.metadata.resource_version == created.metadata.resource_version,
               "labels": read.metadata.labels}
listed = core.list_namespaced_config_map("default", label_selector="client=python")
out["listed"] = [cm.metadata.name for cm in listed.items]
# A dict body is sent as a strategic merge patch, a list as a JSON patch.
core.patch_namespaced_config_map("from-python", "default", {"metadata": {"labels": {"patched": "strategic"}}})
core.patch_namespaced_config_map("from-python", "default", [{"op": "replace", "path": "/data/lang", "value": "py3"}])
patched = core.read_namespaced_config_map("from-python", "default")
out["patched"] = {"labels": patched.metadata.labels, "data": patched.data}
# Read, change, replace: the model object goes back whole, its creationTimestamp as Python writes it (+00:00).
current = core.read_namespaced_config_map("from-python", "default")
current.data["lang"] = "replaced"
replaced = core.replace_namespaced_config_map("from-python", "default", current)
out["replaced"] = {"data": replaced.data, "sameCreation": replaced.metadata.creation_timestamp == current.metadata.creation_timestamp}
core.delete_namespaced_config_map("from-python", "default")
try:
    core.read_namespaced_config_map("from-python", "default")
    out["afterDelete"] = "still there"
except client.exceptions.ApiException as err:
    out["afterDelete"] = {"status": err.status, "reason": json.loads(err.body)["reason"]}
print(json.dumps(out))
