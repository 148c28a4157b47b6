"""Deletes a ReplicaSet with the Python client in each propagation policy; prints what was left after each. JSON."""
import json
import sys
import time

from kubernetes import client, config

config.load_kube_config(config_file=sys.argv[1])
apps = client.AppsV1Api()
core = client.CoreV1Api()
ns = "gc-python"
core.create_namespace({"metadata": {"name": ns}})
out = {}
for policy in ["Foreground", "Background", "Orphan"]:
    name = "rs-" + policy.lower()
    labels = {"app": name}
    rs = apps.create_namespaced_replica_set(ns, {
        "metadata": {"name": name},
        "spec": {"selector": {"matchLabels": labels},
                 "template": {"metadata": {"labels": labels}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}},
    })
    owner = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": name, "uid": rs.metadata.uid,
             "controller": True, "blockOwnerDeletion": True}
    for i in range(3):
        core.create_namespaced_pod(ns, {"metadata": {"name": f"{name}-{i}", "labels": labels, "ownerReferences": [owner]},
                                        "spec": {"containers": [{"name": "c", "image": "nginx"}]}})
    apps.delete_namespaced_replica_set(name, ns, body=client.V1DeleteOptions(propagation_policy=policy))
    deadline = time.time() + 20
    while time.time() < deadline:
        owners_left = [r.metadata.name for r in apps.list_namespaced_replica_set(ns).items if r.metadata.name == name]
        pods = [p for p in core.list_namespaced_pod(ns, label_selector=f"app={name}").items]
        done = not owners_left and ((policy == "Orphan" and len(pods) == 3 and all(not p.metadata.owner_references for p in pods))
                                    or (policy != "Orphan" and not pods))
        if done:
            break
        time.sleep(0.1)
    out[policy] = {"replicaSet": bool(owners_left), "pods": len(pods),
                   "podOwnerRefs": sum(len(p.metadata.owner_references or []) for p in pods)}
print(json.dumps(out))
