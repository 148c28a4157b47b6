"""What the server answered when a call through the Python client was refused (an ApiException), for the tests'
JSON output: the HTTP status, the Status message and its causes as "field: message"; None when the call passed."""
import json

from kubernetes.client.rest import ApiException


def refused(call):
    try:
        call()
    except ApiException as e:
        body = json.loads(e.body)
        causes = [f"{c['field']}: {c['message']}" for c in (body.get("details") or {}).get("causes", [])]
        return {"status": e.status, "message": body["message"], "causes": causes}
    return None
