"""Creates a Job and a CronJob with the official Python client's typed batch/v1 API, reads them back. Prints JSON."""
import json
import sys

from kubernetes import client, config

config.load_kube_config(config_file=sys.argv[1])
batch = client.BatchV1Api()
ns = sys.argv[2]
container = client.V1Container(name="work", image="busybox:1.36", command=["sh", "-c", "echo hi"])
template = client.V1PodTemplateSpec(spec=client.V1PodSpec(restart_policy="Never", containers=[container]))
job = batch.create_namespaced_job(ns, client.V1Job(metadata=client.V1ObjectMeta(name="py-job"), spec=client.V1JobSpec(template=template)))
cron = batch.create_namespaced_cron_job(ns, client.V1CronJob(
    metadata=client.V1ObjectMeta(name="py-cron"),
    spec=client.V1CronJobSpec(schedule="*/10 * * * *", job_template=client.V1JobTemplateSpec(spec=client.V1JobSpec(template=template))),
))
read = batch.read_namespaced_job("py-job", ns)
labels = read.spec.template.metadata.labels
# Read, change, replace: the Job's generated selector and labels travel back unchanged.
read.metadata.labels = {"replaced": "yes"}
replaced = batch.replace_namespaced_job("py-job", ns, read)
out = {
    "job": {
        "uidLabel": labels["batch.kubernetes.io/controller-uid"] == job.metadata.uid,
        "jobName": labels["batch.kubernetes.io/job-name"],
        "selector": read.spec.selector.match_labels == {"batch.kubernetes.io/controller-uid": job.metadata.uid},
        "completions": read.spec.completions,
        "backoffLimit": read.spec.backoff_limit,
        "replacedLabels": replaced.metadata.labels,
    },
    "cron": {
        "schedule": cron.spec.schedule,
        "concurrencyPolicy": cron.spec.concurrency_policy,
        "successfulJobsHistoryLimit": cron.spec.successful_jobs_history_limit,
        "listed": [c.metadata.name for c in batch.list_namespaced_cron_job(ns).items],
    },
}
print(json.dumps(out))
