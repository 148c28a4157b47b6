"""Flunders through the aggregator with the official Python client: list, create, replace, patch, watch, delete.

usage: aggregation.py KUBECONFIG NAMESPACE
Prints one JSON object with what it saw.
"""
import json
import sys

from kubernetes import client, config, watch

config.load_kube_config(sys.argv[1])
ns = sys.argv[2]
api = client.CustomObjectsApi()
G, V, P = 'wardle.example.com', 'v1alpha1', 'flunders'
out = {}
created = api.create_namespaced_custom_object(G, V, ns, P, {'apiVersion': f'{G}/{V}', 'kind': 'Flunder', 'metadata': {'name': 'py-flunder'}, 'spec': {'reference': 'x'}})
out['created'] = created['metadata']['name']
created['metadata']['labels'] = {'replaced': 'yes'}
out['replaced'] = api.replace_namespaced_custom_object(G, V, ns, P, 'py-flunder', created)['metadata']['labels']
out['patched'] = api.patch_namespaced_custom_object(G, V, ns, P, 'py-flunder', {'metadata': {'labels': {'patched': 'yes'}}})['metadata']['labels']
out['listed'] = sorted(o['metadata']['name'] for o in api.list_namespaced_custom_object(G, V, ns, P)['items'])
events = []
for event in watch.Watch().stream(api.list_namespaced_custom_object, G, V, ns, P, timeout_seconds=2):
    events.append([event['type'], event['object']['metadata']['name']])
out['watched'] = events
api.delete_namespaced_custom_object(G, V, ns, P, 'py-flunder')
try:
    api.get_namespaced_custom_object(G, V, ns, P, 'py-flunder')
    out['afterDelete'] = 200
except client.exceptions.ApiException as e:
    out['afterDelete'] = e.status
print(json.dumps(out))
