"""Services through the official Python client's typed core/v1 API: a LoadBalancer that keeps traffic local gets a
health-check node port that a read-modify-replace keeps; a Service kube refuses raises ApiException 422. Prints JSON."""
import json
import sys

from kubernetes import client, config
from kubernetes.client.rest import ApiException

config.load_kube_config(config_file=sys.argv[1])
core = client.CoreV1Api()
ns = sys.argv[2]
spec = client.V1ServiceSpec(
    type="LoadBalancer",
    external_traffic_policy="Local",
    selector={"app": "web"},
    ports=[client.V1ServicePort(port=80, target_port=8080)],
)
created = core.create_namespaced_service(ns, client.V1Service(metadata=client.V1ObjectMeta(name="py-lb"), spec=spec))
read = core.read_namespaced_service("py-lb", ns)
read.metadata.labels = {"replaced": "yes"}
replaced = core.replace_namespaced_service("py-lb", ns, read)
refused = {}
try:
    core.create_namespaced_service(ns, client.V1Service(
        metadata=client.V1ObjectMeta(name="py-bad"),
        spec=client.V1ServiceSpec(ports=[client.V1ServicePort(port=80)], external_i_ps=["127.0.0.1"]),
    ))
except ApiException as e:
    body = json.loads(e.body)
    refused = {"status": e.status, "reason": body["reason"], "message": body["message"]}
print(json.dumps({
    "healthCheckNodePort": created.spec.health_check_node_port,
    "nodePort": created.spec.ports[0].node_port,
    "replacedHealthCheckNodePort": replaced.spec.health_check_node_port,
    "replacedLabels": replaced.metadata.labels,
    "refused": refused,
}))
