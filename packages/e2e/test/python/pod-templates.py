"""Pod templates through the official Python client: a Job whose pods would restart Always and a Deployment whose
container has no image are refused (422) with kube's reasons; a valid Job is created and its status can be
replaced by a controller. Prints JSON."""
import json
import sys

from kubernetes import client, config
from refusals import refused

config.load_kube_config(config_file=sys.argv[1])
batch = client.BatchV1Api()
apps = client.AppsV1Api()
ns = sys.argv[2]

def job(name, restart_policy, image="busybox"):
    return client.V1Job(
        metadata=client.V1ObjectMeta(name=name),
        spec=client.V1JobSpec(template=client.V1PodTemplateSpec(spec=client.V1PodSpec(
            restart_policy=restart_policy, containers=[client.V1Container(name="work", image=image, command=["true"])]))),
    )


always = refused(lambda: batch.create_namespaced_job(ns, job("py-always", "Always")))
no_image = refused(lambda: apps.create_namespaced_deployment(ns, client.V1Deployment(
    metadata=client.V1ObjectMeta(name="py-web"),
    spec=client.V1DeploymentSpec(
        selector=client.V1LabelSelector(match_labels={"app": "web"}),
        template=client.V1PodTemplateSpec(metadata=client.V1ObjectMeta(labels={"app": "web"}),
                                          spec=client.V1PodSpec(containers=[client.V1Container(name="web")]))))))
created = batch.create_namespaced_job(ns, job("py-job", "Never"))
read = batch.read_namespaced_job_status("py-job", ns)
read.status.active = 1
status = batch.replace_namespaced_job_status("py-job", ns, read)
print(json.dumps({"always": always, "noImage": no_image, "created": created.metadata.name, "active": status.status.active}))
