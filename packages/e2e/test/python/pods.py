"""Pods through the official Python client: a read-modify-replace that changes the image and a label is accepted, one
that changes anything else of the spec is refused (422), and so is a pod without an image; an ephemeral container is
added through its subresource and cannot be removed. Prints JSON."""
import json
import sys

from kubernetes import client, config
from refusals import refused

config.load_kube_config(config_file=sys.argv[1])
core = client.CoreV1Api()
ns = sys.argv[2]

pod = client.V1Pod(
    metadata=client.V1ObjectMeta(name="py-pod"),
    spec=client.V1PodSpec(containers=[client.V1Container(name="app", image="nginx:1.26", ports=[client.V1ContainerPort(container_port=80)])]),
)
core.create_namespaced_pod(ns, pod)
read = core.read_namespaced_pod("py-pod", ns)
read.spec.containers[0].image = "nginx:1.27"
read.metadata.labels = {"replaced": "yes"}
replaced = core.replace_namespaced_pod("py-pod", ns, read)
# An ephemeral container (kubectl debug's) through the pod's ephemeralcontainers subresource; removing it again is refused.
debugged = core.patch_namespaced_pod_ephemeralcontainers("py-pod", ns, {"spec": {"ephemeralContainers": [{"name": "py-debug", "image": "busybox", "stdin": True, "tty": True}]}})
current = core.read_namespaced_pod_ephemeralcontainers("py-pod", ns)
current.spec.ephemeral_containers = []
again = core.read_namespaced_pod("py-pod", ns)
again.spec.containers[0].ports[0].container_port = 8080
print(json.dumps({
    "ephemeral": [c.name for c in debugged.spec.ephemeral_containers],
    "ephemeralRemoved": refused(lambda: core.replace_namespaced_pod_ephemeralcontainers("py-pod", ns, current)),
    "image": replaced.spec.containers[0].image,
    "labels": replaced.metadata.labels,
    "portChange": refused(lambda: core.replace_namespaced_pod("py-pod", ns, again)),
    "noImage": refused(lambda: core.create_namespaced_pod(ns, client.V1Pod(
        metadata=client.V1ObjectMeta(name="py-noimage"), spec=client.V1PodSpec(containers=[client.V1Container(name="app")])))),
}))
