"""One kind in two versions through the official Python client: wardle Flunders with CustomObjectsApi in v1alpha1
and v1beta1, HorizontalPodAutoscalers with the typed AutoscalingV1Api and AutoscalingV2Api. Prints JSON."""
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
out["listed"] = {v: [o["apiVersion"] for o in custom.list_namespaced_custom_object(G, v, ns, P)["items"]] for v in ("v1alpha1", "v1beta1")}
try:
    custom.get_namespaced_custom_object(G, "v1", ns, P, "py")
    out["unknownVersion"] = None
except ApiException as e:
    out["unknownVersion"] = e.status

v1 = client.AutoscalingV1Api()
v2 = client.AutoscalingV2Api()
v1.create_namespaced_horizontal_pod_autoscaler(ns, client.V1HorizontalPodAutoscaler(
    metadata=client.V1ObjectMeta(name="web"),
    spec=client.V1HorizontalPodAutoscalerSpec(
        scale_target_ref=client.V1CrossVersionObjectReference(api_version="apps/v1", kind="Deployment", name="web"),
        max_replicas=5, target_cpu_utilization_percentage=70)))
hpa = v2.read_namespaced_horizontal_pod_autoscaler("web", ns)
out["v2Metrics"] = [(m.type, m.resource.name, m.resource.target.type, m.resource.target.average_utilization) for m in hpa.spec.metrics]
out["v2MinReplicas"] = hpa.spec.min_replicas
# v2 only: a second metric and a scale-down behaviour, written through v2.
hpa.spec.metrics.append(client.V2MetricSpec(type="Resource", resource=client.V2ResourceMetricSource(
    name="memory", target=client.V2MetricTarget(type="AverageValue", average_value="500Mi"))))
hpa.spec.behavior = client.V2HorizontalPodAutoscalerBehavior(scale_down=client.V2HPAScalingRules(stabilization_window_seconds=60))
v2.replace_namespaced_horizontal_pod_autoscaler("web", ns, hpa)
old = v1.read_namespaced_horizontal_pod_autoscaler("web", ns)
out["v1"] = {"target": old.spec.target_cpu_utilization_percentage, "annotations": sorted((old.metadata.annotations or {}).keys())}
# A v1 client changes what it knows and replaces the object: what only v2 has survives.
old.spec.max_replicas = 7
v1.replace_namespaced_horizontal_pod_autoscaler("web", ns, old)
again = v2.read_namespaced_horizontal_pod_autoscaler("web", ns)
out["v2AfterV1Replace"] = {
    "maxReplicas": again.spec.max_replicas,
    "metrics": [m.resource.name for m in again.spec.metrics],
    "scaleDownWindow": again.spec.behavior.scale_down.stabilization_window_seconds,
    "annotations": sorted((again.metadata.annotations or {}).keys()),
}
print(json.dumps(out))
