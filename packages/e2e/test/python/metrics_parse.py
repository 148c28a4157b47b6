"""Parses Prometheus text (stdin) with the official client's parser; prints every sample as JSON.

Fails (non-zero, the parser's error on stderr) when the text is not valid exposition format.
"""
import json
import math
import sys

from prometheus_client.parser import text_string_to_metric_families

families = {}
for family in text_string_to_metric_families(sys.stdin.read()):
    families[family.name] = {
        "type": family.type,
        # NaN is a valid sample value (a gauge with nothing measured yet); JSON has no NaN.
        "samples": [{"name": s.name, "labels": s.labels, "value": None if math.isnan(s.value) else s.value} for s in family.samples],
    }
print(json.dumps(families))
