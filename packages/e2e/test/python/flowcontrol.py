"""API Priority and Fairness through python3-kubernetes' dynamic client (its typed API has no flowcontrol v1).

Lists the bootstrap FlowSchemas and PriorityLevelConfigurations, creates a level and a schema of its own, waits for
the server's Dangling condition, reads the X-Kubernetes-PF-* headers of a plain request, and deletes what it made.
Prints one JSON object.
"""
import json
import sys
import time

from kubernetes import client, config, dynamic

api_client = config.new_client_from_config(sys.argv[1])
dyn = dynamic.DynamicClient(api_client)
schemas = dyn.resources.get(api_version="flowcontrol.apiserver.k8s.io/v1", kind="FlowSchema")
levels = dyn.resources.get(api_version="flowcontrol.apiserver.k8s.io/v1", kind="PriorityLevelConfiguration")

out = {
    "schemas": sorted(s.metadata.name for s in schemas.get().items),
    "levels": sorted(l.metadata.name for l in levels.get().items),
}

levels.create(body={
    "apiVersion": "flowcontrol.apiserver.k8s.io/v1",
    "kind": "PriorityLevelConfiguration",
    "metadata": {"name": "python-level"},
    "spec": {"type": "Limited", "limited": {"nominalConcurrencyShares": 7, "limitResponse": {"type": "Queue", "queuing": {"queues": 16}}}},
})
created = schemas.create(body={
    "apiVersion": "flowcontrol.apiserver.k8s.io/v1",
    "kind": "FlowSchema",
    "metadata": {"name": "python-schema"},
    "spec": {
        "priorityLevelConfiguration": {"name": "python-level"},
        "matchingPrecedence": 5000,
        "rules": [{"subjects": [{"kind": "User", "user": {"name": "python-user"}}], "nonResourceRules": [{"verbs": ["get"], "nonResourceURLs": ["/version"]}]}],
    },
})
level = levels.get(name="python-level")
q = level.spec.limited.limitResponse.queuing
out["levelDefaults"] = {"queues": q.queues, "handSize": q.handSize, "queueLengthLimit": q.queueLengthLimit, "lendablePercent": level.spec.limited.lendablePercent}
out["precedence"] = created.spec.matchingPrecedence

dangling = None
for _ in range(200):
    got = schemas.get(name="python-schema")
    conditions = [c for c in (got.status.conditions or []) if c.type == "Dangling"] if got.status else []
    if conditions:
        dangling = {"status": conditions[0].status, "reason": conditions[0].reason}
        break
    time.sleep(0.05)
out["dangling"] = dangling

# The admin's own request: classified by the exempt schema, whose UID the response names.
response = api_client.call_api("/api/v1/namespaces", "GET", auth_settings=["BearerToken"], _preload_content=False)[0]
exempt = schemas.get(name="exempt")
out["exemptHeader"] = response.headers.get("X-Kubernetes-PF-FlowSchema-UID") == exempt.metadata.uid
out["levelHeader"] = response.headers.get("X-Kubernetes-PF-PriorityLevel-UID") == levels.get(name="exempt").metadata.uid

schemas.delete(name="python-schema")
levels.delete(name="python-level")
out["left"] = [n for n in (s.metadata.name for s in schemas.get().items) if n.startswith("python")]
print(json.dumps(out))
