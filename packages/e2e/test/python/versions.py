"""One kind in two versions through the official Python client: wardle Flunders with CustomObjectsApi in v1alpha1
and v1beta1, HorizontalPodAutoscalers with the typed AutoscalingV1Api and, in v2, the generic API. Prints JSON."""
import json
import sys

from kubernetes import client, config
from kubernetes.client.rest import ApiException

config.load_kube_config(config_file=sys.argv[1])
ns = sys.argv[2]
out = {}

custom = client.CustomObjectsApi()
G, P = "wardle.example.com", "flunders"
custom.create_namespaced_custom_object(G, "v1alpha1", ns, P, {
    "apiVersion": "wardle.example.com/v1alpha1", "kind": "Flunder", "metadata": {"name": "py"},
    "spec": {"reference": "fish", "referenceType": "Fischer"}})
beta = custom.get_namespaced_custom_object(G, "v1beta1", ns, P, "py")
out["readInV1beta1"] = {"apiVersion": beta["apiVersion"], "spec": beta["spec"]}
# Read, change, replace in the other version: the whole object goes back.
beta["spec"] = {"flunderReference": "other", "referenceType": "Flunder"}
out["replacedInV1beta1"] = custom.replace_namespaced_custom_object(G, "v1beta1", ns, P, "py", beta)["spec"]
alpha = custom.get_namespaced_custom_object(G, "v1alpha1", ns, P, "py")
out["readInV1alpha1"] = {"apiVersion": alpha["apiVersion"], "spec": alpha["spec"]}
# List items of a built-in kind carry no apiVersion of their own (kube's typed lists): the list's says which.
lists = {v: custom.list_namespaced_custom_object(G, v, ns, P) for v in ("v1alpha1", "v1beta1")}
out["listed"] = {v: {"apiVersion": l["apiVersion"], "specs": [o["spec"] for o in l["items"]]} for v, l in lists.items()}
try:
    custom.get_namespaced_custom_object(G, "v1", ns, P, "py")
    out["unknownVersion"] = None
except ApiException as e:
    out["unknownVersion"] = e.status

# The typed AutoscalingV1Api for v1; this client release (22.6) has no typed autoscaling/v2 API, so v2 goes
# through the generic API with plain dicts.
v1 = client.AutoscalingV1Api()
A, V2, HPA = "autoscaling", "v2", "horizontalpodautoscalers"
v1.create_namespaced_horizontal_pod_autoscaler(ns, client.V1HorizontalPodAutoscaler(
    metadata=client.V1ObjectMeta(name="web"),
    spec=client.V1HorizontalPodAutoscalerSpec(
        scale_target_ref=client.V1CrossVersionObjectReference(api_version="apps/v1", kind="Deployment", name="web"),
        max_replicas=5, target_cpu_utilization_percentage=70)))
hpa = custom.get_namespaced_custom_object(A, V2, ns, HPA, "web")
out["v2Metrics"] = json.loads(json.dumps(hpa["spec"]["metrics"]))
out["v2MinReplicas"] = hpa["spec"]["minReplicas"]
# v2 only: a second metric and a scale-down behaviour, written through v2.
hpa["spec"]["metrics"].append({"type": "Resource", "resource": {"name": "memory", "target": {"type": "AverageValue", "averageValue": "500Mi"}}})
hpa["spec"]["behavior"] = {"scaleDown": {"stabilizationWindowSeconds": 60}}
custom.replace_namespaced_custom_object(A, V2, ns, HPA, "web", hpa)
old = v1.read_namespaced_horizontal_pod_autoscaler("web", ns)
out["v1"] = {"target": old.spec.target_cpu_utilization_percentage, "annotations": sorted((old.metadata.annotations or {}).keys())}
# A v1 client changes what it knows and replaces the typed object it read: what only v2 has survives.
old.spec.max_replicas = 7
v1.replace_namespaced_horizontal_pod_autoscaler("web", ns, old)
again = custom.get_namespaced_custom_object(A, V2, ns, HPA, "web")
out["v2AfterV1Replace"] = {
    "maxReplicas": again["spec"]["maxReplicas"],
    "metrics": [m["resource"]["name"] for m in again["spec"]["metrics"]],
    "scaleDownWindow": again["spec"]["behavior"]["scaleDown"]["stabilizationWindowSeconds"],
    "annotations": sorted(again["metadata"].get("annotations", {}).keys()),
}
print(json.dumps(out))
