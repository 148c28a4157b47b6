/**
 * Structural checks of OpenAPI documents, shared by this module's tests: every `$ref` resolves inside its own
 * document, and the basic rules of OpenAPI 3.0 and Swagger 2.0 hold. Each returns a list of problems.
 */

type Json = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** `$ref`s that do not resolve within `doc` (JSON pointers into the same document). */
export function danglingRefs(doc: Json): string[] {
  const out: string[] = [];
  const resolve = (pointer: string) => {
    if (!pointer.startsWith('#/')) return undefined;
    let node: any = doc;
    for (const raw of pointer.slice(2).split('/')) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      if (!node || typeof node !== 'object' || !(key in node)) return undefined;
      node = node[key];
    }
    return node;
  };
  const walk = (value: unknown, where: string) => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${where}/${i}`));
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (k === '$ref' && typeof v === 'string') {
          if (resolve(v) === undefined) out.push(`${where}: ${v}`);
        } else walk(v, `${where}/${k}`);
      }
    }
  };
  walk(doc, '#');
  return out;
}

function checkParameters(params: unknown, where: string, problems: string[], v2: boolean): Json[] {
  if (params === undefined) return [];
  if (!Array.isArray(params)) {
    problems.push(`${where}: parameters is not an array`);
    return [];
  }
  const seen = new Set<string>();
  for (const p of params as Json[]) {
    const key = `${p.in}:${p.name}`;
    if (seen.has(key)) problems.push(`${where}: duplicate parameter ${key}`);
    seen.add(key);
    if (typeof p.name !== 'string' || !p.name) problems.push(`${where}: parameter without name`);
    const places = v2 ? ['query', 'header', 'path', 'formData', 'body'] : ['query', 'header', 'path', 'cookie'];
    if (!places.includes(p.in)) problems.push(`${where}: parameter ${p.name} in ${p.in}`);
    if (p.in === 'path' && p.required !== true) problems.push(`${where}: path parameter ${p.name} not required`);
    if (v2) {
      if (p.in === 'body' ? !p.schema : !p.type) problems.push(`${where}: parameter ${p.name} without ${p.in === 'body' ? 'schema' : 'type'}`);
    } else if (!p.schema && !p.content) problems.push(`${where}: parameter ${p.name} without schema`);
  }
  return params as Json[];
}

/** Basic OpenAPI 3.0 rules: version, info, paths, operations, parameters, responses, unique operation IDs. */
export function openAPI3Problems(doc: Json): string[] {
  const problems: string[] = [];
  if (!/^3\.0\.\d+$/.test(doc.openapi)) problems.push(`openapi is ${doc.openapi}`);
  if (typeof doc.info?.title !== 'string' || typeof doc.info?.version !== 'string') problems.push('info needs title and version');
  if (!doc.paths || typeof doc.paths !== 'object') problems.push('paths missing');
  const ids = new Set<string>();
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    if (!path.startsWith('/')) problems.push(`path ${path} does not start with /`);
    const pathParams = checkParameters(item.parameters, path, problems, false);
    for (const key of Object.keys(item)) {
      if (!METHODS.includes(key) && !['parameters', 'summary', 'description', 'servers', '$ref'].includes(key) && !key.startsWith('x-')) {
        problems.push(`${path}: unknown path item key ${key}`);
      }
    }
    for (const method of METHODS.filter((m) => item[m])) {
      const op = item[method] as Json;
      const where = `${method.toUpperCase()} ${path}`;
      const params = [...pathParams, ...checkParameters(op.parameters, where, problems, false)];
      for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
        if (!params.some((p) => p.in === 'path' && p.name === name)) problems.push(`${where}: path parameter ${name} not declared`);
      }
      for (const p of params) {
        if (p.in === 'path' && !path.includes(`{${p.name}}`)) problems.push(`${where}: path parameter ${p.name} not in path`);
      }
      if (!op.responses || !Object.keys(op.responses).length) problems.push(`${where}: no responses`);
      for (const [code, r] of Object.entries<Json>(op.responses ?? {})) {
        if (!/^([1-5]\d\d|[1-5]XX|default)$/.test(code)) problems.push(`${where}: response code ${code}`);
        if (typeof r.description !== 'string') problems.push(`${where}: response ${code} without description`);
      }
      if (op.requestBody && !Object.keys(op.requestBody.content ?? {}).length) problems.push(`${where}: requestBody without content`);
      if (op.operationId) {
        if (ids.has(op.operationId)) problems.push(`${where}: duplicate operationId ${op.operationId}`);
        ids.add(op.operationId);
      }
    }
  }
  for (const [name, schema] of Object.entries<Json>(doc.components?.schemas ?? {})) {
    if (!schema || typeof schema !== 'object') problems.push(`schema ${name} is not an object`);
  }
  return problems;
}

/** Basic Swagger 2.0 rules, and none of the v3-only keywords kube leaves out of v2. */
export function swagger2Problems(doc: Json): string[] {
  const problems: string[] = [];
  if (doc.swagger !== '2.0') problems.push(`swagger is ${doc.swagger}`);
  const ids = new Set<string>();
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    if (!path.startsWith('/')) problems.push(`path ${path} does not start with /`);
    const pathParams = checkParameters(item.parameters, path, problems, true);
    for (const method of METHODS.filter((m) => item[m])) {
      const op = item[method] as Json;
      const where = `${method.toUpperCase()} ${path}`;
      const params = [...pathParams, ...checkParameters(op.parameters, where, problems, true)];
      if (params.filter((p) => p.in === 'body').length > 1) problems.push(`${where}: several body parameters`);
      if (!op.responses || !Object.keys(op.responses).length) problems.push(`${where}: no responses`);
      if (op.requestBody) problems.push(`${where}: requestBody in v2`);
      if (ids.has(op.operationId)) problems.push(`${where}: duplicate operationId ${op.operationId}`);
      ids.add(op.operationId);
    }
  }
  const walk = (value: unknown, where: string) => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${where}/${i}`));
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (['oneOf', 'anyOf', 'nullable', 'components', 'requestBody'].includes(k)) problems.push(`${where}: ${k} is not Swagger 2.0`);
        if (k === '$ref' && typeof v === 'string' && !v.startsWith('#/definitions/')) problems.push(`${where}: $ref ${v}`);
        if (k !== 'properties' || !v || typeof v !== 'object') walk(v, `${where}/${k}`);
        else for (const [p, s] of Object.entries(v)) walk(s, `${where}/properties/${p}`);
      }
    }
  };
  walk(doc.definitions, '#/definitions');
  return problems;
}
