// The page side of the onnxruntime-web adapters (ort_web_backend.mjs): the library's own calls,
// InferenceSession.create on the request's model and one run. Nothing is computed here.
import { Answer, webgpuInfo } from '/host/harness.mjs';

const DIST = '/lib/onnxruntime-web/dist/';
// onnxruntime-web's tensor type of each suite type (bf16: none, so that ORT says so).
const ORT_TYPES = {
  i8: 'int8', i16: 'int16', i32: 'int32', i64: 'int64', u8: 'uint8', u16: 'uint16',
  u32: 'uint32', u64: 'uint64', f16: 'float16', bf16: 'bfloat16', f32: 'float32',
  f64: 'float64', boolean: 'bool',
};
// ORT's texts: a node no enabled EP has a kernel for (with the CPU fallback disabled, a node
// that would fall back is refused too), versus a model ORT calls invalid.
const NO_KERNEL = new RegExp(['Could not find an implementation', 'Failed to find kernel',
  'NOT_IMPLEMENTED', 'fallback', 'node_provider_type', 'not supported', 'does not support',
  'requires f16', 'Unsupported'].join('|'), 'i');
const INVALID_MODEL = new RegExp(['invalid model', 'Type Error', 'ShapeInferenceError',
  'TypeInferenceError', 'Unrecognized attribute', 'Mismatched attribute', 'INVALID_ARGUMENT',
  'INVALID_GRAPH', 'Attempting to broadcast', 'Can broadcast', 'Integer division by zero'].join('|'));

let ort = null;
let options = null;
const sessions = new Map(); // model key -> session, the 32 most recent kept

export async function setup({ ep }) {
  ort = await import(`${DIST}${ep === 'webgpu' ? 'ort.webgpu.min.mjs' : 'ort.min.mjs'}`);
  ort.env.wasm.wasmPaths = DIST;
  ort.env.wasm.numThreads = 1; // one Chromium among other jobs on a 2-core machine
  ort.env.logLevel = 'error';
  options = ep === 'wasm' ? { executionProviders: ['wasm'] }
    : { executionProviders: ['webgpu'], extra: { session: { disable_cpu_ep_fallback: '1' } } };
  const builds = { webgpu: 'ort.webgpu.min.mjs (native WebGPU EP)', jsep: 'ort.min.mjs (JSEP)',
    wasm: 'ort.min.mjs (wasm EP)' };
  const hello = { build: builds[ep] };
  if (ep === 'wasm') {
    hello.wasm = { simd: ort.env.wasm.simd !== false, threads: ort.env.wasm.numThreads,
      file: 'ort-wasm-simd-threaded.wasm', cross_origin_isolated: self.crossOriginIsolated };
    // The run line keeps `build` (backends/PROTOCOL.md section 9, item 21), not `wasm`.
    hello.build += `; ${hello.wasm.file}, SIMD ${hello.wasm.simd ? 'on' : 'off'}, ` +
      `${hello.wasm.threads} thread(s)${hello.wasm.cross_origin_isolated ? '' : ', not cross-origin isolated'}`;
  } else {
    hello.gpu = await webgpuInfo();
  }
  return { version: ort.env.versions.common, hello };
}

function message(e) {
  return e && e.message ? e.message : String(e);
}

async function session(request, inputs) {
  const key = JSON.stringify([request.op, request.attributes, request.a, request.b]);
  if (sessions.has(key)) return sessions.get(key);
  let s;
  try {
    s = await ort.InferenceSession.create(await inputs.model(), options);
  } catch (e) {
    const text = message(e);
    if (INVALID_MODEL.test(text)) throw new Answer('rejected', text);
    if (NO_KERNEL.test(text)) throw new Answer('unsupported', text);
    throw new Answer('error', `InferenceSession.create: ${text}`);
  }
  if (sessions.size >= 32) {
    const [oldKey, old] = sessions.entries().next().value;
    sessions.delete(oldKey);
    await old.release();
  }
  sessions.set(key, s);
  return s;
}

function tensor(input, data) {
  try {
    return new ort.Tensor(ORT_TYPES[input.dtype], data, input.shape);
  } catch (e) {
    throw new Answer('unsupported', `onnxruntime-web: ${message(e)}`);
  }
}

export async function evaluate(request, inputs) {
  const s = await session(request, inputs);
  let result;
  try {
    result = (await s.run({ A: tensor(request.a, inputs.a), B: tensor(request.b, inputs.b) })).C;
  } catch (e) {
    const text = message(e);
    if (INVALID_MODEL.test(text)) throw new Answer('rejected', text);
    // The native EP compiles its shader at the first run: "requires f16 but the device does not
    // support it" comes from run().
    throw new Answer(NO_KERNEL.test(text) ? 'unsupported' : 'error', text);
  }
  const dtype = Object.keys(ORT_TYPES).find((k) => ORT_TYPES[k] === result.type);
  if (!dtype) throw new Error(`onnxruntime-web returned a tensor of type ${result.type}`);
  return { dtype, shape: result.dims, data: result.data };
}
