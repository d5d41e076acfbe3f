// The one-node ONNX model of a request (C = Mul(A, B) or Div(A, B)), encoded with protobufjs
// from ONNX's own schema (Debian's libonnx-dev: /usr/include/onnx/onnx.proto; ELTWISE_ONNX_PROTO
// overrides the path): what a user of an ONNX runtime writes to run one op.
// - opset_import {"": N} for onnx.Mul-N / onnx.Div-N; ir_version that of the ONNX release that
//   introduced the opset (IR 3 for opsets 1-8, IR 7 for 13 and 14: onnx.helper's table), at least
//   4 with initializers (IR 3 allows them only as default values of graph inputs).
// - A and B with the request's types and static shapes; C typed like A, without a shape.
// - Attributes as given: broadcast and axis as INT, consumed_inputs as INTS ("0,1"); any other
//   name too (INT when its text is an integer, else STRING), so that the runtime judges it. The
//   only check of its own: an INT/INTS text must be an int64 (rejected otherwise).
// - Graph forms: const-a / const-b / const-ab make that input an initializer holding the .npy's
//   bytes (bf16: its raw bits); dynamic gives A and B symbolic dims (A0, ..., B0, ...).
import protobuf from 'protobufjs';

import { OPS } from './op_table.mjs';
import { readNpy } from './npy.mjs';
import { Answer } from './protocol.mjs';
import { TYPES } from './types.mjs';

export const ONNX_PROTO = process.env.ELTWISE_ONNX_PROTO || '/usr/include/onnx/onnx.proto';
// Graph form -> the inputs that are constants of the graph (initializers).
export const CONSTANTS = { runtime: '', 'const-a': 'A', 'const-b': 'B', 'const-ab': 'AB', dynamic: '' };
export const GRAPH_FORMS = Object.keys(CONSTANTS);
// Every (ONNX op version, type) of the op-version table: the report then shows what the runtime
// refuses. OpenVINO op versions are not ONNX.
export const CLAIMS = Object.fromEntries(Object.values(OPS).filter((op) => op.domain === 'onnx')
  .map((op) => [op.id, [...op.element_types]]));
const INT_ATTRIBUTES = new Set(['broadcast', 'axis']);
const INTS_ATTRIBUTES = new Set(['consumed_inputs']);

let schema = null;
function onnx() {
  if (!schema) {
    const root = protobuf.loadSync(ONNX_PROTO);
    schema = {
      ModelProto: root.lookupType('onnx.ModelProto'),
      AttributeType: root.lookupEnum('onnx.AttributeProto.AttributeType').values,
      DataType: root.lookupEnum('onnx.TensorProto.DataType').values,
    };
  }
  return schema;
}

// The ONNX op type and opset of a claimed op version: its name and version in the table.
export function parseOp(op) {
  if (typeof op !== 'string' || !Object.hasOwn(CLAIMS, op)) {
    throw new Answer('unsupported', `${op} is not an ONNX op version this adapter maps`);
  }
  return { type: OPS[op].name, opset: OPS[op].version };
}

function irVersion(opset) {
  return opset <= 8 ? 3 : 7;
}

function integerText(name, text) {
  if (!/^-?[0-9]+$/.test(text)) {
    throw new Answer('rejected', `attribute ${name}=${JSON.stringify(text)} is not an integer`);
  }
  const value = BigInt(text);
  if (value < -(2n ** 63n) || value >= 2n ** 63n) {
    throw new Answer('rejected', `attribute ${name}=${text} does not fit in int64`);
  }
  return value.toString(); // protobufjs takes int64 values as decimal strings, exactly
}

function attribute(name, text) {
  const { AttributeType } = onnx();
  if (INTS_ATTRIBUTES.has(name)) {
    const items = text.trim() === '' ? [] : text.split(',').map((t) => integerText(name, t.trim()));
    return { name, type: AttributeType.INTS, ints: items };
  }
  if (INT_ATTRIBUTES.has(name) || /^-?[0-9]+$/.test(text)) {
    return { name, type: AttributeType.INT, i: integerText(name, text) };
  }
  return { name, type: AttributeType.STRING, s: Buffer.from(text, 'utf8') };
}

function valueInfo(name, dtype, shape, dynamic = false) {
  const tensorType = { elemType: onnx().DataType[TYPES[dtype].onnx] };
  if (shape) {
    tensorType.shape = { dim: shape.map((d, i) => (dynamic ? { dimParam: `${name}${i}` } : { dimValue: d })) };
  }
  return { name, type: { tensorType } };
}

export function graphForm(request) {
  const form = request.graph_form ?? 'runtime';
  if (!Object.hasOwn(CONSTANTS, form)) {
    throw new Answer('unsupported', `graph form ${JSON.stringify(form)} is not one this adapter builds`);
  }
  return form;
}

// The inputs fed at run time in the request's graph form: [name, tensor of the request].
export function runtimeInputs(request) {
  return ['A', 'B'].filter((n) => !CONSTANTS[graphForm(request)].includes(n))
    .map((n) => [n, request[n.toLowerCase()]]);
}

function initializer(name, input) {
  const data = readNpy(input);
  return { name, dataType: onnx().DataType[TYPES[input.dtype].onnx], dims: input.shape,
    rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

// The serialized ModelProto of the request, in its graph form.
export function modelBytes(request) {
  const op = parseOp(request.op);
  for (const input of [request.a, request.b]) {
    if (!TYPES[input.dtype]) throw new Answer('rejected', `unknown element type ${input.dtype}`);
  }
  const form = graphForm(request);
  const attributes = Object.entries(request.attributes || {}).map(([k, v]) => attribute(k, String(v)));
  const initializers = [...CONSTANTS[form]].map((n) => initializer(n, request[n.toLowerCase()]));
  const graph = {
    name: `${op.type}-${op.opset}`,
    node: [{ opType: op.type, domain: '', input: ['A', 'B'], output: ['C'], attribute: attributes }],
    input: runtimeInputs(request).map(([n, t]) => valueInfo(n, t.dtype, t.shape, form === 'dynamic')),
    output: [valueInfo('C', request.a.dtype, null)],
    initializer: initializers,
  };
  const model = {
    irVersion: initializers.length ? Math.max(irVersion(op.opset), 4) : irVersion(op.opset),
    producerName: 'eltwise-validate', graph, opsetImport: [{ domain: '', version: op.opset }],
  };
  const { ModelProto } = onnx();
  return ModelProto.encode(ModelProto.fromObject(model)).finish();
}

// What a compiled model depends on; null for a form with constants (built per request).
export function cacheKey(request) {
  const form = graphForm(request);
  if (CONSTANTS[form]) return null;
  return JSON.stringify([form, request.op, request.attributes || {}, request.a.dtype,
    request.a.shape, request.b.dtype, request.b.shape]);
}
