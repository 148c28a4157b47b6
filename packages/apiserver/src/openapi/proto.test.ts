import { describe, expect, it } from 'vitest';
import protobuf from 'protobufjs';
import { group as apps } from '@kapi/api-apps';
import { group as autoscaling } from '@kapi/api-autoscaling';
import { group as core } from '@kapi/api-core';
import { group as policy } from '@kapi/api-policy';
import { parse as parseYaml } from 'yaml';
import { buildOpenAPIV3Documents } from './v3.js';
import { buildSwaggerDocument } from './v2.js';
import { encodeSwaggerProtobuf } from './proto.js';

// The messages of github.com/google/gnostic openapiv2/OpenAPIv2.proto that the encoder writes, with upstream's
// field numbers; the decoder is protobufjs, independent of the encoder under test.
const GNOSTIC = `
syntax = "proto3";
package openapi.v2;
message AdditionalPropertiesItem { oneof oneof { Schema schema = 1; bool boolean = 2; } }
message Any { bytes value = 1; string yaml = 2; }
message ApiKeySecurity { string type = 1; string name = 2; string in = 3; string description = 4; repeated NamedAny vendor_extension = 5; }
message BodyParameter { string description = 1; string name = 2; string in = 3; bool required = 4; Schema schema = 5; repeated NamedAny vendor_extension = 6; }
message Definitions { repeated NamedSchema additional_properties = 1; }
message Document {
  string swagger = 1; Info info = 2; string host = 3; string base_path = 4; repeated string schemes = 5; repeated string consumes = 6;
  repeated string produces = 7; Paths paths = 8; Definitions definitions = 9; repeated SecurityRequirement security = 12;
  SecurityDefinitions security_definitions = 13; repeated NamedAny vendor_extension = 16;
}
message Info { string title = 1; string version = 2; string description = 3; }
message ItemsItem { repeated Schema schema = 1; }
message NamedAny { string name = 1; Any value = 2; }
message NamedPathItem { string name = 1; PathItem value = 2; }
message NamedResponseValue { string name = 1; ResponseValue value = 2; }
message NamedSchema { string name = 1; Schema value = 2; }
message NamedSecurityDefinitionsItem { string name = 1; SecurityDefinitionsItem value = 2; }
message NamedStringArray { string name = 1; StringArray value = 2; }
message NonBodyParameter { oneof oneof { QueryParameterSubSchema query_parameter_sub_schema = 3; PathParameterSubSchema path_parameter_sub_schema = 4; } }
message Operation {
  repeated string tags = 1; string summary = 2; string description = 3; string operation_id = 5; repeated string produces = 6;
  repeated string consumes = 7; repeated ParametersItem parameters = 8; Responses responses = 9; repeated string schemes = 10;
  bool deprecated = 11; repeated NamedAny vendor_extension = 13;
}
message Parameter { oneof oneof { BodyParameter body_parameter = 1; NonBodyParameter non_body_parameter = 2; } }
message ParametersItem { oneof oneof { Parameter parameter = 1; } }
message PathItem {
  string _ref = 1; Operation get = 2; Operation put = 3; Operation post = 4; Operation delete = 5; Operation options = 6;
  Operation head = 7; Operation patch = 8; repeated ParametersItem parameters = 9; repeated NamedAny vendor_extension = 10;
}
message PathParameterSubSchema { bool required = 1; string in = 2; string description = 3; string name = 4; string type = 5; string format = 6; bool unique_items = 19; }
message Paths { repeated NamedAny vendor_extension = 1; repeated NamedPathItem path = 2; }
message Properties { repeated NamedSchema additional_properties = 1; }
message QueryParameterSubSchema { bool required = 1; string in = 2; string description = 3; string name = 4; string type = 6; string format = 7; bool unique_items = 20; }
message Response { string description = 1; SchemaItem schema = 2; }
message ResponseValue { oneof oneof { Response response = 1; } }
message Responses { repeated NamedResponseValue response_code = 1; repeated NamedAny vendor_extension = 2; }
message Schema {
  string _ref = 1; string format = 2; string title = 3; string description = 4; Any default = 5; repeated string required = 19;
  repeated Any enum = 20; AdditionalPropertiesItem additional_properties = 21; TypeItem type = 22; ItemsItem items = 23;
  repeated Schema all_of = 24; Properties properties = 25; bool read_only = 27; repeated NamedAny vendor_extension = 31;
}
message SchemaItem { oneof oneof { Schema schema = 1; } }
message SecurityDefinitions { repeated NamedSecurityDefinitionsItem additional_properties = 1; }
message SecurityDefinitionsItem { oneof oneof { ApiKeySecurity api_key_security = 2; } }
message SecurityRequirement { repeated NamedStringArray additional_properties = 1; }
message StringArray { repeated string value = 1; }
message TypeItem { repeated string value = 1; }
`;

type Json = Record<string, any>;

describe('OpenAPI v2 as Protobuf (gnostic openapi.v2.Document)', () => {
  const swagger = buildSwaggerDocument(buildOpenAPIV3Documents([core, apps, autoscaling, policy]).values()) as unknown as Json;
  const bytes = encodeSwaggerProtobuf(swagger as never);
  const Document = protobuf.parse(GNOSTIC, { keepCase: true }).root.lookupType('openapi.v2.Document');
  const decoded = Document.toObject(Document.decode(bytes), { defaults: false, arrays: true }) as Json;
  const extensions = (list: Json[] | undefined) =>
    Object.fromEntries((list ?? []).map((e) => [e.name, parseYaml(e.value.yaml)]));

  it('decodes to the same document', () => {
    expect(decoded.swagger).toBe('2.0');
    expect(decoded.info).toEqual(swagger.info);
    expect(decoded.paths.path.map((p: Json) => p.name)).toEqual(Object.keys(swagger.paths));
    expect(decoded.definitions.additional_properties.map((d: Json) => d.name)).toEqual(Object.keys(swagger.definitions));
    expect(decoded.security).toEqual([{ additional_properties: [{ name: 'BearerToken', value: { value: [] } }] }]);
    expect(decoded.security_definitions.additional_properties[0].value.api_key_security).toMatchObject({ type: 'apiKey', in: 'header' });
  });

  it('keeps definitions: refs, types, required, nested items and properties, vendor extensions as YAML', () => {
    const defs = new Map<string, Json>(decoded.definitions.additional_properties.map((d: Json) => [d.name, d.value]));
    const deployment = defs.get('io.k8s.api.apps.v1.Deployment')!;
    expect(deployment.type.value).toEqual(['object']);
    expect(extensions(deployment.vendor_extension)).toEqual({
      'x-kubernetes-group-version-kind': [{ group: 'apps', kind: 'Deployment', version: 'v1' }],
    });
    const spec = deployment.properties.additional_properties.find((p: Json) => p.name === 'spec').value;
    expect(spec._ref).toBe('#/definitions/io.k8s.api.apps.v1.DeploymentSpec');
    expect(spec.type).toBeUndefined();
    const podSpec = defs.get('io.k8s.api.core.v1.PodSpec')!;
    expect(podSpec.required).toEqual(['containers']);
    const containers = podSpec.properties.additional_properties.find((p: Json) => p.name === 'containers').value;
    expect(containers.items.schema[0]._ref).toBe('#/definitions/io.k8s.api.core.v1.Container');
    expect(extensions(containers.vendor_extension)).toMatchObject({
      'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-list-map-keys': ['name'],
    });
    const labels = defs.get('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta')!.properties.additional_properties
      .find((p: Json) => p.name === 'labels').value;
    expect(labels.additional_properties.schema.type.value).toEqual(['string']);
    expect(defs.get('io.k8s.apimachinery.pkg.util.intstr.IntOrString')).toMatchObject({ format: 'int-or-string', type: { value: ['string'] } });
  });

  it('keeps the PATCH operation kubectl inspects: GVK extension, consumes and fieldValidation', () => {
    const item = decoded.paths.path.find((p: Json) => p.name === '/apis/apps/v1/namespaces/{namespace}/deployments/{name}').value;
    expect(extensions(item.patch.vendor_extension)).toEqual({
      'x-kubernetes-action': 'patch',
      'x-kubernetes-group-version-kind': { group: 'apps', kind: 'Deployment', version: 'v1' },
    });
    expect(item.patch.consumes).toContain('application/strategic-merge-patch+json');
    const query = item.patch.parameters.map((p: Json) => p.parameter.non_body_parameter?.query_parameter_sub_schema).filter(Boolean);
    expect(query.map((q: Json) => q.name)).toContain('fieldValidation');
    expect(query[0]).toMatchObject({ in: 'query', type: 'string', unique_items: true });
    expect(item.patch.parameters[0].parameter.body_parameter).toMatchObject({
      in: 'body', name: 'body', required: true, schema: { _ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' },
    });
    const pathParam = item.parameters.map((p: Json) => p.parameter.non_body_parameter.path_parameter_sub_schema).find(Boolean);
    expect(pathParam).toMatchObject({ name: 'name', in: 'path', required: true, type: 'string' });
    const ok = item.patch.responses.response_code.find((r: Json) => r.name === '200').value.response;
    expect(ok.schema.schema._ref).toBe('#/definitions/io.k8s.api.apps.v1.Deployment');
  });
});
