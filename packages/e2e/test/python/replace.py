"""Read-modify-replace loops with the official Python client on a Deployment (with its status conditions, whose
times Python writes as +00:00) and on a wardle Flunder (through CustomObjectsApi). Prints JSON."""
import datetime
import json
import sys

from kubernetes import client, config

config.load_kube_config(config_file=sys.argv[1])
apps = client.AppsV1Api()
custom = client.CustomObjectsApi()
out = {}

deployment = client.V1Deployment(
    metadata=client.V1ObjectMeta(name="py-web"),
    spec=client.V1DeploymentSpec(
        selector=client.V1LabelSelector(match_labels={"app": "py-web"}),
        template=client.V1PodTemplateSpec(
            metadata=client.V1ObjectMeta(labels={"app": "py-web"}),
            spec=client.V1PodSpec(containers=[client.V1Container(name="web", image="nginx:1.25")]),
        ),
    ),
)
created = apps.create_namespaced_deployment("default", deployment)
out["defaulted"] = {"replicas": created.spec.replicas, "strategy": created.spec.strategy.type,
                    "pullPolicy": created.spec.template.spec.containers[0].image_pull_policy}
for i in range(3):
    current = apps.read_namespaced_deployment("py-web", "default")
    current.spec.replicas = i + 2
    current.spec.template.spec.containers[0].image = f"nginx:1.2{6 + i}"
    apps.replace_namespaced_deployment("py-web", "default", current)
final = apps.read_namespaced_deployment("py-web", "default")
out["replaced"] = {"replicas": final.spec.replicas, "image": final.spec.template.spec.containers[0].image,
                   "generation": final.metadata.generation}

now = datetime.datetime(2026, 11, 24, 11, 50, 56, tzinfo=datetime.timezone.utc)
final.status = client.V1DeploymentStatus(replicas=4, conditions=[client.V1DeploymentCondition(
    type="Available", status="True", last_update_time=now, last_transition_time=now, reason="MinimumReplicasAvailable")])
with_status = apps.replace_namespaced_deployment_status("py-web", "default", final)
out["status"] = {"replicas": with_status.status.replicas, "time": with_status.status.conditions[0].last_update_time.isoformat()}
# And again with what was just read back: its times go out as +00:00 once more.
again = apps.read_namespaced_deployment_status("py-web", "default")
again.status.replicas = 5
out["statusAgain"] = apps.replace_namespaced_deployment_status("py-web", "default", again).status.replicas

group, version, plural = "wardle.example.com", "v1alpha1", "flunders"
custom.create_namespaced_custom_object(group, version, "default", plural, {
    "apiVersion": f"{group}/{version}", "kind": "Flunder", "metadata": {"name": "py-flunder"}, "spec": {"reference": "one"}})
for ref in ["two", "three"]:
    current = custom.get_namespaced_custom_object(group, version, "default", plural, "py-flunder")
    current["spec"]["reference"] = ref
    custom.replace_namespaced_custom_object(group, version, "default", plural, "py-flunder", current)
out["flunder"] = custom.get_namespaced_custom_object(group, version, "default", plural, "py-flunder")["spec"]
print(json.dumps(out))
