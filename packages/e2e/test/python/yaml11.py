"""Reads a ConfigMap as application/yaml with the Python client's REST layer and parses it with PyYAML (a YAML 1.1
reader, like Go's yaml.v2). Argument 2 is a JSON object of data to store. Prints the data PyYAML read, as JSON."""
import json
import sys

import yaml
from kubernetes import client, config

config.load_kube_config(config_file=sys.argv[1])
data = json.loads(sys.argv[2])
core = client.CoreV1Api()
core.create_namespaced_config_map("default", {"metadata": {"name": "yaml11", "labels": {"on": "yes"}}, "data": data})
api = client.ApiClient()
resp = api.call_api("/api/v1/namespaces/default/configmaps/yaml11", "GET", header_params={"Accept": "application/yaml"},
                    auth_settings=["BearerToken"], _preload_content=False)
text = resp[0].data.decode("utf-8")
read = yaml.safe_load(text)
core.delete_namespaced_config_map("yaml11", "default")
print(json.dumps({"contentType": resp[0].getheader("Content-Type"), "labels": read["metadata"]["labels"], "data": read["data"]}))
