"""Uses a service-account token as a pod's client would: the API server's URL, its CA, and the bearer token.
Asks for a TokenRequest through the admin kubeconfig first, then works as the service account. Prints JSON."""
import json
import sys

from kubernetes import client, config
from kubernetes.client.rest import ApiException

kubeconfig, namespace, account, ca_file = sys.argv[1:5]
config.load_kube_config(config_file=kubeconfig)
admin_core = client.CoreV1Api()
host = admin_core.api_client.configuration.host
request = client.AuthenticationV1TokenRequest(spec=client.V1TokenRequestSpec(audiences=[], expiration_seconds=3600))
issued = admin_core.create_namespaced_service_account_token(account, namespace, request)
out = {"expirationTimestamp": issued.status.expiration_timestamp is not None}

conf = client.Configuration()
conf.host = host
conf.ssl_ca_cert = ca_file
conf.api_key = {"authorization": "Bearer " + issued.status.token}
api = client.ApiClient(conf)
core = client.CoreV1Api(api)
out["configMaps"] = sorted(cm.metadata.name for cm in core.list_namespaced_config_map(namespace).items)
try:
    core.list_namespaced_secret(namespace)
    out["secrets"] = "allowed"
except ApiException as e:
    out["secrets"] = e.status
review = client.V1SelfSubjectAccessReview(spec=client.V1SelfSubjectAccessReviewSpec(
    resource_attributes=client.V1ResourceAttributes(namespace=namespace, verb="list", resource="configmaps")))
out["canListConfigMaps"] = client.AuthorizationV1Api(api).create_self_subject_access_review(review).status.allowed
bad = client.Configuration()
bad.host = host
bad.ssl_ca_cert = ca_file
bad.api_key = {"authorization": "Bearer " + issued.status.token[:-4] + "AAAA"}
try:
    client.CoreV1Api(client.ApiClient(bad)).list_namespaced_config_map(namespace)
    out["tampered"] = "allowed"
except ApiException as e:
    out["tampered"] = e.status
print(json.dumps(out))
