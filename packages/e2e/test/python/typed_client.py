"""The official Python client's view of objects @kapi/client wrote, and objects for @kapi/client to read.

Usage: typed_client.py KUBECONFIG MODE NAMESPACE RUN_LABEL [EXTRA_JSON]
  read:   reads (get, label-selected list, the Deployment's scale) the objects typed-client.test.ts created
  write:  creates, patches and deletes objects for the typed client to read and watch
  errors: the same failing requests the typed client makes (404 get, 409 create, 422 create); their Status bodies
Prints JSON on stdout; field names are the Python models' (snake_case) mapped back to their JSON names by hand, so
what is printed is what the Python client understood, not the raw response.
"""
import base64
import json
import sys

from kubernetes import client, config
from kubernetes.client.rest import ApiException

kubeconfig, mode, ns, run = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
extra = json.loads(sys.argv[5]) if len(sys.argv) > 5 else {}
config.load_kube_config(config_file=kubeconfig)
core = client.CoreV1Api()
apps = client.AppsV1Api()
selector = "run=%s" % run


def meta(m):
    return {
        "name": m.name,
        "namespace": m.namespace,
        "uid": m.uid,
        "resourceVersion": m.resource_version,
        "labels": m.labels,
        "generation": m.generation,
        # Python parses the timestamp into a datetime: printed back as ISO 8601 for the test to compare instants.
        "creationTimestamp": m.creation_timestamp.isoformat() if m.creation_timestamp else None,
    }


def listed(lst):
    return {
        "resourceVersion": lst.metadata.resource_version,
        "items": [{"name": o.metadata.name, "uid": o.metadata.uid, "resourceVersion": o.metadata.resource_version} for o in lst.items],
    }


def failure(call):
    try:
        call()
    except ApiException as err:
        return {"status": err.status, "body": json.loads(err.body)}
    return None


out = {}
if mode == "read":
    names = extra
    d = apps.read_namespaced_deployment(names["deployment"], ns)
    c = d.spec.template.spec.containers[0]
    out["deployment"] = {
        "metadata": meta(d.metadata),
        "replicas": d.spec.replicas,
        "matchLabels": d.spec.selector.match_labels,
        "strategy": d.spec.strategy.type,
        "container": {"name": c.name, "image": c.image, "ports": [p.container_port for p in (c.ports or [])]},
    }
    s = apps.read_namespaced_deployment_scale(names["deployment"], ns)
    out["scale"] = {
        "apiVersion": s.api_version,
        "kind": s.kind,
        "metadata": meta(s.metadata),
        "specReplicas": s.spec.replicas,
        "statusReplicas": s.status.replicas,
        "selector": s.status.selector,
    }
    cm = core.read_namespaced_config_map(names["configmap"], ns)
    out["configmap"] = {
        "metadata": meta(cm.metadata),
        "data": cm.data,
        "binaryData": cm.binary_data,
        # The bytes themselves, decoded by Python.
        "bytes": {k: list(base64.b64decode(v)) for k, v in (cm.binary_data or {}).items()},
    }
    sec = core.read_namespaced_secret(names["secret"], ns)
    out["secret"] = {
        "metadata": meta(sec.metadata),
        "type": sec.type,
        "data": sec.data,
        "decoded": {k: base64.b64decode(v).decode("utf-8") for k, v in (sec.data or {}).items()},
    }
    svc = core.read_namespaced_service(names["service"], ns)
    out["service"] = {
        "metadata": meta(svc.metadata),
        "type": svc.spec.type,
        "clusterIP": svc.spec.cluster_ip,
        "selector": svc.spec.selector,
        "ports": [{"name": p.name, "port": p.port, "targetPort": p.target_port, "protocol": p.protocol} for p in svc.spec.ports],
    }
    n = core.read_namespace(names["namespace"])
    out["namespace"] = {"metadata": meta(n.metadata), "phase": n.status.phase if n.status else None}
    out["lists"] = {
        "deployments": listed(apps.list_namespaced_deployment(ns, label_selector=selector)),
        "configmaps": listed(core.list_namespaced_config_map(ns, label_selector=selector)),
        "secrets": listed(core.list_namespaced_secret(ns, label_selector=selector)),
        "services": listed(core.list_namespaced_service(ns, label_selector=selector)),
        "namespaces": listed(core.list_namespace(label_selector=selector)),
    }
elif mode == "write":
    labels = {"run": run, "from": "python"}
    events = []

    def cm_body(name, data):
        return client.V1ConfigMap(metadata=client.V1ObjectMeta(name=name, labels=labels), data=data,
                                  binary_data={"raw": base64.b64encode(bytes([0, 128, 255, ord(name[-1])])).decode("ascii")})

    for name in ["py-a", "py-b", "py-c"]:
        created = core.create_namespaced_config_map(ns, cm_body(name, {"k": name}))
        events.append({"type": "ADDED", "name": name, "uid": created.metadata.uid, "resourceVersion": created.metadata.resource_version})
    # A dict body is sent as a strategic merge patch.
    patched = core.patch_namespaced_config_map("py-a", ns, {"data": {"k": "patched"}, "metadata": {"labels": {"patched": "yes"}}})
    events.append({"type": "MODIFIED", "name": "py-a", "uid": patched.metadata.uid, "resourceVersion": patched.metadata.resource_version})
    deleted_uid = core.read_namespaced_config_map("py-c", ns).metadata.uid
    core.delete_namespaced_config_map("py-c", ns)
    events.append({"type": "DELETED", "name": "py-c", "uid": deleted_uid})

    dep = client.V1Deployment(
        metadata=client.V1ObjectMeta(name="py-web", labels=labels),
        spec=client.V1DeploymentSpec(
            replicas=2,
            selector=client.V1LabelSelector(match_labels={"app": "py-web"}),
            template=client.V1PodTemplateSpec(
                metadata=client.V1ObjectMeta(labels={"app": "py-web"}),
                spec=client.V1PodSpec(containers=[client.V1Container(name="web", image="nginx:1.27")]),
            ),
        ),
    )
    d = apps.create_namespaced_deployment(ns, dep)
    dep_events = [{"type": "ADDED", "name": "py-web", "uid": d.metadata.uid, "resourceVersion": d.metadata.resource_version}]
    s = apps.patch_namespaced_deployment_scale("py-web", ns, {"spec": {"replicas": 3}})
    d = apps.read_namespaced_deployment("py-web", ns)
    dep_events.append({"type": "MODIFIED", "name": "py-web", "uid": d.metadata.uid, "resourceVersion": d.metadata.resource_version})

    out["configmapEvents"] = events
    out["deploymentEvents"] = dep_events
    out["scaleReplicas"] = s.spec.replicas
    out["configmaps"] = {}
    for name in ["py-a", "py-b"]:
        cm = core.read_namespaced_config_map(name, ns)
        out["configmaps"][name] = {"metadata": meta(cm.metadata), "data": cm.data, "binaryData": cm.binary_data}
    out["deployment"] = {"metadata": meta(d.metadata), "replicas": d.spec.replicas, "image": d.spec.template.spec.containers[0].image}
    out["afterDelete"] = failure(lambda: core.read_namespaced_config_map("py-c", ns))
elif mode == "errors":
    out["notFound"] = failure(lambda: core.read_namespaced_config_map(extra["missing"], ns))
    out["alreadyExists"] = failure(lambda: core.create_namespaced_config_map(ns, {"metadata": {"name": extra["existing"]}}))
    out["invalid"] = failure(lambda: apps.create_namespaced_deployment(ns, extra["invalid"]))
else:
    raise SystemExit("unknown mode %s" % mode)
print(json.dumps(out))
