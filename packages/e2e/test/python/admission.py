"""Admission webhooks through the official Python client: a Pod the mutating webhook changes, a ConfigMap the
validating webhook denies (the ApiException's status and Status message). Prints JSON."""
import json
import sys

from kubernetes import client, config
from kubernetes.client.rest import ApiException

config.load_kube_config(config_file=sys.argv[1])
ns = sys.argv[2]
out = {}
core = client.CoreV1Api()
pod = core.create_namespaced_pod(ns, client.V1Pod(
    metadata=client.V1ObjectMeta(name="py-pod"),
    spec=client.V1PodSpec(containers=[client.V1Container(name="app", image="nginx")])))
out["podLabels"] = pod.metadata.labels
out["containers"] = [c.name for c in pod.spec.containers]
try:
    core.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py-cm"), data={"forbidden": "1"}))
    out["denied"] = None
except ApiException as e:
    out["denied"] = {"status": e.status, "message": json.loads(e.body)["message"]}
print(json.dumps(out))
