#!/usr/bin/env node
// An eltwise-backend/1 adapter (backends/PROTOCOL.md) for ONNX Runtime through onnxruntime-node.
//
// Run it under the validator, from the repository root:
//   eltwise-validate run --backend-cmd "node backends/adapters/onnxruntime/ort_backend.mjs"
//
// Each request becomes what a user of ONNX Runtime has: a one-node ONNX model (opset = the op
// version, A and B with static shapes, the legacy attributes exactly as given), loaded into an
// InferenceSession on the CPU execution provider and run once. ONNX Runtime decides everything:
// what it has kernels for, what it calls invalid, and the values. The adapter computes nothing.
// Answers: a missing kernel -> `unsupported` (ORT's message verbatim); a model or inputs that
// ORT calls invalid -> `rejected` (ORT's message); anything else -> `error`. See README.md.
// Graph forms (request field `graph_form`): const-a / const-b / const-ab make that input a graph
// initializer holding the .npy's bytes (not a graph input; IR version at least 4); dynamic
// declares A and B with symbolic dims (dim_param) of the same rank.
import fs from 'node:fs';
import readline from 'node:readline';

import ort from 'onnxruntime-node';
import protobuf from 'protobufjs';

import { OPS } from '../../examples/op_table.mjs'; // core/op_table.json

const PROTOCOL = 'eltwise-backend/1';
// The ONNX schema comes from Debian's libonnx-dev: it is ONNX's own onnx.proto, not a copy.
const ONNX_PROTO = process.env.ELTWISE_ONNX_PROTO || '/usr/include/onnx/onnx.proto';
const MAX_CACHED_SESSIONS = 64;
// Graph form -> the inputs that are constants of the graph (initializers).
const CONSTANTS = { runtime: '', 'const-a': 'A', 'const-b': 'B', 'const-ab': 'AB', dynamic: '' };

// The suite's element types: ONNX TensorProto type, onnxruntime-node tensor type, .npy code and
// the typed array the bytes are viewed as. bf16 has no onnxruntime-node tensor type (`ort` is
// 'bfloat16' only so that the binding itself says so); in .npy files it is raw '<u2' bits.
const TYPES = {
  i8: { proto: 'INT8', ort: 'int8', descr: '|i1', array: Int8Array },
  i16: { proto: 'INT16', ort: 'int16', descr: '<i2', array: Int16Array },
  i32: { proto: 'INT32', ort: 'int32', descr: '<i4', array: Int32Array },
  i64: { proto: 'INT64', ort: 'int64', descr: '<i8', array: BigInt64Array },
  u8: { proto: 'UINT8', ort: 'uint8', descr: '|u1', array: Uint8Array },
  u16: { proto: 'UINT16', ort: 'uint16', descr: '<u2', array: Uint16Array },
  u32: { proto: 'UINT32', ort: 'uint32', descr: '<u4', array: Uint32Array },
  u64: { proto: 'UINT64', ort: 'uint64', descr: '<u8', array: BigUint64Array },
  f16: { proto: 'FLOAT16', ort: 'float16', descr: '<f2', array: Uint16Array },
  bf16: { proto: 'BFLOAT16', ort: 'bfloat16', descr: '<u2', array: Uint16Array },
  f32: { proto: 'FLOAT', ort: 'float32', descr: '<f4', array: Float32Array },
  f64: { proto: 'DOUBLE', ort: 'float64', descr: '<f8', array: Float64Array },
  boolean: { proto: 'BOOL', ort: 'bool', descr: '|b1', array: Uint8Array },
};

// Every (ONNX op version, type) of the op-version table is claimed, so that the report shows
// what ONNX Runtime refuses. OpenVINO ops: not ONNX.
const CLAIMS = Object.fromEntries(Object.values(OPS).filter((op) => op.domain === 'onnx')
  .map((op) => [op.id, [...op.element_types]]));

// The legacy attributes' ONNX types; any other name is passed on too (as INT when its text is an
// integer, else STRING) so that ONNX Runtime, not the adapter, judges it.
const INT_ATTRIBUTES = new Set(['broadcast', 'axis']);
const INTS_ATTRIBUTES = new Set(['consumed_inputs']);

// ORT's error texts carry no status code through onnxruntime-node, only the message.
const NO_KERNEL = /Could not find an implementation|Failed to find kernel|NOT_IMPLEMENTED/;
const INVALID_MODEL = new RegExp(['invalid model', 'Type Error', 'ShapeInferenceError',
  'TypeInferenceError', 'Unrecognized attribute', 'Mismatched attribute', 'INVALID_ARGUMENT',
  'INVALID_GRAPH'].join('|'));
// Run-time shape errors ("Can broadcast 0 by 0 or 1. 3 is invalid."): seen in the dynamic form only.
const INVALID_INPUTS = /Attempting to broadcast|Can broadcast .* is invalid|Integer division by zero|INVALID_ARGUMENT/;

class Answer extends Error {
  // An answer other than `ok`, thrown from wherever it is decided.
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

ort.env.logLevel = 'fatal';
const onnx = protobuf.loadSync(ONNX_PROTO);
const ModelProto = onnx.lookupType('onnx.ModelProto');
const AttributeType = onnx.lookupEnum('onnx.AttributeProto.AttributeType').values;
const DataType = onnx.lookupEnum('onnx.TensorProto.DataType').values;

// The ONNX op type and opset of a claimed op version: its name and version in the table.
function parseOp(op) {
  if (typeof op !== 'string' || !Object.hasOwn(CLAIMS, op)) {
    throw new Answer('unsupported', `${op} is not an ONNX op this adapter maps`);
  }
  return { type: OPS[op].name, opset: OPS[op].version };
}

// The IR version of the ONNX release that introduced the opset (onnx.helper VERSION_TABLE):
// opsets 1-8 came with IR 3, opsets 12-14 with IR 7 (this adapter uses 1, 6, 7, 13 and 14).
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
  if (INTS_ATTRIBUTES.has(name)) {
    const items = text.trim() === '' ? [] : text.split(',').map((t) => integerText(name, t.trim()));
    return { name, type: AttributeType.INTS, ints: items };
  }
  if (INT_ATTRIBUTES.has(name) || /^-?[0-9]+$/.test(text)) {
    return { name, type: AttributeType.INT, i: integerText(name, text) };
  }
  return { name, type: AttributeType.STRING, s: Buffer.from(text, 'utf8') };
}

// A graph input; `dynamic`: every dim symbolic (A0, A1, ...), only the rank fixed.
function valueInfo(name, dtype, shape, dynamic = false) {
  const tensorType = { elemType: DataType[TYPES[dtype].proto] };
  if (shape) {
    tensorType.shape = { dim: shape.map((d, i) => (dynamic ? { dimParam: `${name}${i}` } : { dimValue: d })) };
  }
  return { name, type: { tensorType } };
}

function graphForm(request) {
  const form = request.graph_form ?? 'runtime';
  if (!Object.hasOwn(CONSTANTS, form)) {
    throw new Answer('unsupported', `graph form ${JSON.stringify(form)} is not one this adapter builds`);
  }
  return form;
}

// The inputs fed at run time in the request's graph form: [name, tensor of the request].
function runtimeInputs(request) {
  return ['A', 'B'].filter((n) => !CONSTANTS[graphForm(request)].includes(n))
    .map((n) => [n, request[n.toLowerCase()]]);
}

// An initializer holding the .npy's bytes as they are (bf16: its raw bits).
function initializer(name, input) {
  const data = readNpy(input);
  return { name, dataType: DataType[TYPES[input.dtype].proto], dims: input.shape,
    rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

// The one-node model: C = Op(A, B), the output typed like A (ORT's type inference checks B).
// IR 3 allows initializers only as default values of graph inputs: with constants, IR >= 4.
function modelBytes(request, op) {
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
  return ModelProto.encode(ModelProto.fromObject(model)).finish();
}

// Sessions are cached by everything that went into the model, least recently used dropped first;
// a model with constants is built for its request alone (evaluate releases its session).
const sessions = new Map();

async function session(request, op) {
  const form = graphForm(request);
  if (CONSTANTS[form]) return createSession(modelBytes(request, op));
  const key = JSON.stringify([form, request.op, request.attributes || {}, request.a.dtype,
    request.a.shape, request.b.dtype, request.b.shape]);
  let cached = sessions.get(key);
  if (cached) {
    sessions.delete(key);
  } else {
    cached = await createSession(modelBytes(request, op));
    if (sessions.size >= MAX_CACHED_SESSIONS) await dropOldest();
  }
  sessions.set(key, cached);
  return cached;
}

async function dropOldest() {
  const [key, oldest] = sessions.entries().next().value;
  sessions.delete(key);
  await oldest.release();
}

async function createSession(bytes) {
  try {
    // ORT's log is off (fatal only): its errors come back in the exception, which the answer
    // carries, and its warnings ("only guarantees support for opset 7 or above") are noise.
    return await ort.InferenceSession.create(bytes, { executionProviders: ['cpu'], logSeverityLevel: 4 });
  } catch (e) {
    const message = e && e.message ? e.message : String(e);
    if (NO_KERNEL.test(message)) throw new Answer('unsupported', message);
    // A constant B holding a zero: the Div kernel's constructor refuses it as run() does.
    if (INVALID_MODEL.test(message) || INVALID_INPUTS.test(message)) throw new Answer('rejected', message);
    throw new Answer('error', `InferenceSession.create: ${message}`);
  }
}

// .npy files (our protocol's format, not ORT's): version 1.0-3.0, C order, little-endian.
function readNpy(input) {
  const file = fs.readFileSync(input.path);
  if (file.length < 10 || file.toString('latin1', 0, 6) !== '\x93NUMPY') {
    throw new Error(`${input.path}: not a .npy file`);
  }
  const major = file[6];
  const lengthBytes = major === 1 ? 2 : 4;
  const headerLength = lengthBytes === 2 ? file.readUInt16LE(8) : file.readUInt32LE(8);
  const dataOffset = 8 + lengthBytes + headerLength;
  const header = parseNpyHeader(file.toString('latin1', 8 + lengthBytes, dataOffset), input.path);
  checkNpyHeader(header, input);
  const type = TYPES[input.dtype];
  const bytes = elementCount(input.shape) * type.array.BYTES_PER_ELEMENT;
  if (file.length - dataOffset !== bytes) {
    throw new Error(`${input.path}: ${file.length - dataOffset} data bytes, expected ${bytes}`);
  }
  const copy = new Uint8Array(bytes); // a fresh, aligned buffer for the typed array view
  copy.set(file.subarray(dataOffset));
  return new type.array(copy.buffer);
}

function parseNpyHeader(text, path) {
  const descr = /'descr':\s*'([^']*)'/.exec(text);
  const fortran = /'fortran_order':\s*(True|False)/.exec(text);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(text);
  if (!descr || !fortran || !shape) throw new Error(`${path}: malformed .npy header ${JSON.stringify(text)}`);
  const dims = shape[1].split(',').map((d) => d.trim()).filter((d) => d !== '').map(Number);
  return { descr: descr[1], fortran: fortran[1] === 'True', shape: dims };
}

function checkNpyHeader(header, input) {
  const type = TYPES[input.dtype];
  const shape = JSON.stringify(header.shape);
  if (header.descr !== type.descr || header.fortran || shape !== JSON.stringify(input.shape)) {
    const order = header.fortran ? ' (Fortran order)' : '';
    throw new Error(`${input.path} holds ${header.descr} ${shape}${order}, the request says ` +
      `${input.dtype} ${JSON.stringify(input.shape)}`);
  }
}

function elementCount(shape) {
  return shape.reduce((n, d) => n * d, 1);
}

function npyPreamble(descr, shape) {
  const dims = shape.length === 1 ? `${shape[0]},` : shape.join(', ');
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${dims}), }`;
  // Magic (6) + version (2) + length (2) + header + '\n' is padded to a multiple of 64.
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const prefix = Buffer.alloc(10);
  prefix.write('\x93NUMPY', 0, 'latin1');
  prefix[6] = 1;
  prefix.writeUInt16LE(header.length, 8);
  return Buffer.concat([prefix, Buffer.from(header, 'latin1')]);
}

// The validator's shared output memory (PROTOCOL.md section 9, item 17), kept open while
// requests name the same path and size. Node cannot map it, but a positioned write into it
// still saves the file's creation and the validator's read and copy.
const region = { key: null, fd: -1 };

function regionFd(offer) {
  const key = `${offer.path} ${offer.bytes}`;
  if (region.key !== key) {
    if (region.fd >= 0) fs.closeSync(region.fd);
    region.key = null;
    region.fd = -1;
    region.fd = fs.openSync(offer.path, 'r+'); // never 'w': the region's size is sealed
    region.key = key;
  }
  return region.fd;
}

function writeAll(fd, buffer, position) {
  for (let done = 0; done < buffer.length;) {
    done += fs.writeSync(fd, buffer, done, buffer.length - done, position + done);
  }
}

// Writes the output .npy into the offered region when it fits there, else to `out`. Returns
// whether it went to the region.
function writeNpy(request, descr, shape, data) {
  const preamble = npyPreamble(descr, shape);
  const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const offer = request.out_region;
  if (offer && preamble.length + body.length <= offer.bytes) {
    let fd = -1;
    try {
      fd = regionFd(offer);
    } catch {
      fd = -1; // not reachable from here: the file will do
    }
    if (fd >= 0) {
      writeAll(fd, preamble, 0);
      writeAll(fd, body, preamble.length);
      return true;
    }
  }
  fs.writeFileSync(request.out, Buffer.concat([preamble, body]));
  return false;
}

function tensor(input) {
  const type = TYPES[input.dtype];
  const data = readNpy(input);
  try {
    return new ort.Tensor(type.ort, data, input.shape);
  } catch (e) {
    // onnxruntime-node has no bfloat16 tensor: a valid input the binding cannot pass to ORT.
    throw new Answer('unsupported', `onnxruntime-node: ${e.message}`);
  }
}

async function execute(s, request) {
  const feeds = Object.fromEntries(runtimeInputs(request).map(([n, t]) => [n, tensor(t)]));
  try {
    return (await s.run(feeds)).C;
  } catch (e) {
    const message = e && e.message ? e.message : String(e);
    throw new Answer(INVALID_INPUTS.test(message) ? 'rejected' : 'error', message);
  }
}

function outputName(ortType) {
  const name = Object.keys(TYPES).find((k) => TYPES[k].ort === ortType);
  if (!name) throw new Error(`ONNX Runtime returned a tensor of type ${ortType}`);
  return name;
}

async function evaluate(request) {
  const op = parseOp(request.op);
  for (const input of [request.a, request.b]) {
    if (!TYPES[input.dtype]) throw new Answer('rejected', `unknown element type ${input.dtype}`);
  }
  const s = await session(request, op);
  let result;
  try {
    result = await execute(s, request);
  } finally {
    if (CONSTANTS[graphForm(request)]) await s.release();
  }
  const dtype = outputName(result.type);
  const inRegion = writeNpy(request, TYPES[dtype].descr, result.dims, result.data);
  return inRegion ? { dtype, in_region: true } : { dtype };
}

async function answer(request) {
  const id = request && Number.isInteger(request.id) ? request.id : -1;
  try {
    return { id, status: 'ok', ...(await evaluate(request)) };
  } catch (e) {
    if (e instanceof Answer) return { id, status: e.status, message: e.message };
    const message = e && e.message ? `${e.name || 'Error'}: ${e.message}` : String(e);
    return { id, status: 'error', message };
  }
}

function send(message) {
  // process.stdout on a pipe is synchronous on Linux: each line is out when write returns.
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

async function serve() {
  send({ protocol: PROTOCOL, name: 'onnxruntime', version: ort.env.versions.node, ops: CLAIMS,
    graph_forms: Object.keys(CONSTANTS), output_region: true });
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) { // one request at a time: the next line waits for this answer
    if (!line.trim()) continue;
    let request;
    try {
      request = JSON.parse(line);
    } catch (e) {
      send({ id: -1, status: 'error', message: `request is not JSON: ${e.message}` });
      continue;
    }
    send(await answer(request));
  }
}

await serve();
