#!/usr/bin/env node
// An eltwise-backend/1 adapter (backends/PROTOCOL.md) for ONNX Runtime through onnxruntime-node.
//
// Run it under the validator, from the repository root:
//   eltwise-validate run --backend onnxruntime
//
// Each request becomes what a user of ONNX Runtime has: a one-node ONNX model (the Node adapter
// kit's, backends/kit/node: opset = the op version, A and B with static shapes, the legacy
// attributes exactly as given, the request's graph form), loaded into an InferenceSession on the
// CPU execution provider and run once. ONNX Runtime decides everything: what it has kernels for,
// what it calls invalid, and the values. The adapter computes nothing.
// Answers: a missing kernel -> `unsupported` (ORT's message verbatim); a model or inputs that
// ORT calls invalid -> `rejected` (ORT's message); anything else -> `error`. See README.md.
import ort from 'onnxruntime-node';
import {
  Answer, CLAIMS, CONSTANTS, GRAPH_FORMS, ModelCache, answer, cacheKey, graphForm, hello,
  modelBytes, readNpy, runtimeInputs, serve, writeNpy,
} from 'eltwise-adapter-kit';

// onnxruntime-node's tensor type of each suite type. bf16 has none (`bfloat16` only so that the
// binding itself says so).
const ORT_TYPES = {
  i8: 'int8', i16: 'int16', i32: 'int32', i64: 'int64', u8: 'uint8', u16: 'uint16',
  u32: 'uint32', u64: 'uint64', f16: 'float16', bf16: 'bfloat16', f32: 'float32',
  f64: 'float64', boolean: 'bool',
};

// ORT's error texts carry no status code through onnxruntime-node, only the message.
const NO_KERNEL = /Could not find an implementation|Failed to find kernel|NOT_IMPLEMENTED/;
const INVALID_MODEL = new RegExp(['invalid model', 'Type Error', 'ShapeInferenceError',
  'TypeInferenceError', 'Unrecognized attribute', 'Mismatched attribute', 'INVALID_ARGUMENT',
  'INVALID_GRAPH'].join('|'));
// Run-time shape errors ("Can broadcast 0 by 0 or 1. 3 is invalid."): seen in the dynamic form only.
const INVALID_INPUTS = /Attempting to broadcast|Can broadcast .* is invalid|Integer division by zero|INVALID_ARGUMENT/;

ort.env.logLevel = 'fatal';
// Sessions by everything that went into the model; a model with constants is built for its
// request alone (evaluate releases its session).
const sessions = new ModelCache(64, (s) => s.release());

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

function tensor(input) {
  const data = readNpy(input);
  try {
    return new ort.Tensor(ORT_TYPES[input.dtype], data, input.shape);
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
  const name = Object.keys(ORT_TYPES).find((k) => ORT_TYPES[k] === ortType);
  if (!name) throw new Error(`ONNX Runtime returned a tensor of type ${ortType}`);
  return name;
}

async function evaluate(request) {
  const bytes = () => createSession(modelBytes(request));
  const s = await sessions.get(cacheKey(request), bytes);
  let result;
  try {
    result = await execute(s, request);
  } finally {
    if (CONSTANTS[graphForm(request)]) await s.release();
  }
  const dtype = outputName(result.type);
  return writeNpy(request, dtype, result.dims, result.data) ? { dtype, in_region: true } : { dtype };
}

await serve((request) => answer(request, evaluate),
  hello('onnxruntime', ort.env.versions.node, CLAIMS, GRAPH_FORMS));
