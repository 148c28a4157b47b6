#!/usr/bin/env python3
"""Lists the Go fields whose zero value is the same as absent, for codegen's importer (x-kapi-omit-zero).

A Kubernetes API field that is a non-pointer scalar (string, bool, number, or a named type of one) tagged
`omitempty` is left out of kube's JSON when zero, and Go's Protobuf writes it anyway: `minReadySeconds: 0`,
`paused: false`, `nodeName: ""` from a kubectl Protobuf request mean "unset". Pointer fields (`replicas *int32`)
keep an explicit zero. The Go types are not in the OpenAPI or the .proto files, so this reads them from
k8s.io/api, k8s.io/apimachinery and k8s.io/apiextensions-apiserver at a release tag.

    python3 codegen/scripts/go-omit-zero.py <k8s.io/api git dir> <k8s.io/apimachinery git dir> <tag> \
        [<k8s.io/apiextensions-apiserver git dir>] > codegen/src/import/go-omit-zero.json

(for example the bare repositories of github.com/kubernetes/api, github.com/kubernetes/apimachinery and
github.com/kubernetes/apiextensions-apiserver at v0.33.9).
"""
import json
import re
import subprocess
import sys

SCALARS = {'string', 'bool', 'int', 'int32', 'int64', 'uint32', 'uint64', 'float32', 'float64', 'byte'}


def git(repo, *args):
    return subprocess.run(['git', '--git-dir', repo, *args], check=True, capture_output=True, text=True).stdout


def types_files(repo, tag, roots, pattern=r'/types\.go$'):
    files = [f for f in git(repo, 'ls-tree', '-r', '--name-only', tag).split('\n') if re.search(pattern, f)]
    return [f for f in files if any(f.startswith(r) for r in roots)]


def scan(repo, tag, path, prefix, out):
    source = git(repo, 'show', f'{tag}:{path}')
    package = prefix + '.' + path[: path.rindex('/')].replace('/', '.')
    named = {m.group(1) for m in re.finditer(r'^type (\w+) (?:string|bool|u?int(?:32|64)?|float(?:32|64))\s*$', source, re.M)}
    struct = None
    for line in source.split('\n'):
        start = re.match(r'^type (\w+) struct \{', line)
        if start:
            struct = start.group(1)
            continue
        if struct and line.startswith('}'):
            struct = None
            continue
        # JSON names may hold `$` and `-` (JSONSchemaProps' `$schema`, `x-kubernetes-int-or-string`).
        field = re.match(r'^\t(\w+)\s+(\*?)([\w.]+)\s+`json:"([\w$][\w$-]*)((?:,[\w]+)*)"', line) if struct else None
        if not field:
            continue
        _, pointer, go_type, name, options = field.groups()
        if pointer or 'omitempty' not in options.split(','):
            continue
        if go_type in SCALARS or go_type in named:
            out.setdefault(f'{package}.{struct}', []).append(name)


def main():
    api, machinery, tag = sys.argv[1:4]
    out = {}
    for path in types_files(api, tag, ['']):
        scan(api, tag, path, 'io.k8s.api', out)
    for path in types_files(machinery, tag, ['pkg/apis/meta/v1/']):
        scan(machinery, tag, path, 'io.k8s.apimachinery', out)
    if len(sys.argv) > 4:
        # JSONSchemaProps lives in types_jsonschema.go beside types.go.
        for path in types_files(sys.argv[4], tag, ['pkg/apis/apiextensions/v1/'], r'/types[a-z_]*\.go$'):
            scan(sys.argv[4], tag, path, 'io.k8s.apiextensions-apiserver', out)
    print(json.dumps(dict(sorted(out.items())), indent=1))


main()
