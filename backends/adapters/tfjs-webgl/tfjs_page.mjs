// The page side of the TensorFlow.js adapters (tfjs_backend.mjs): tf.mul and tf.div on the
// request's tensors, on the webgl or webgpu back end. Nothing is computed here.
import { Answer, webglInfo, webgpuInfo } from '/host/harness.mjs';

const TF_TYPES = { f32: 'float32', i32: 'int32' };
const { tf } = globalThis; // tf.min.js (UMD), loaded by the page before this module

export async function setup({ backend }) {
  // Off: tensors under 128 (webgl) or 1,000 (webgpu) elements would be computed on the CPU.
  tf.env().set(backend === 'webgl' ? 'WEBGL_CPU_FORWARD' : 'WEBGPU_CPU_FORWARD', false);
  if (!(await tf.setBackend(backend))) throw new Error(`tf.setBackend('${backend}') failed`);
  await tf.ready();
  if (tf.getBackend() !== backend) throw new Error(`TF.js runs on ${tf.getBackend()}, not ${backend}`);
  const gpu = backend === 'webgl' ? webglInfo() : await webgpuInfo();
  return { version: tf.version.tfjs, hello: { gpu } };
}

function check(request) {
  const names = Object.keys(request.attributes);
  if (names.length) {
    throw new Answer('rejected', `${request.op} has no attribute ${names.join(', ')} (TF.js's tf.mul/tf.div take none)`, 'attribute');
  }
  for (const t of [request.a, request.b]) {
    if (!TF_TYPES[t.dtype]) throw new Answer('rejected', `TF.js has no ${t.dtype} tensor`, 'type');
  }
  if (request.a.dtype !== request.b.dtype) {
    throw new Answer('rejected', `mixed element types ${request.a.dtype} and ${request.b.dtype}`, 'type');
  }
  if (request.op.startsWith('onnx.Div') && request.a.dtype === 'i32') {
    // ONNX integer Div truncates; tf.div on int32 floors, and TF.js has no truncating division.
    throw new Answer('unsupported', 'TF.js has no truncating integer division (tf.div on int32 floors)');
  }
}

export async function evaluate(request, inputs) {
  check(request);
  const dtype = TF_TYPES[request.a.dtype];
  const result = tf.tidy(() => {
    const a = tf.tensor(inputs.a, request.a.shape, dtype);
    const b = tf.tensor(inputs.b, request.b.shape, dtype);
    try {
      return request.op.startsWith('onnx.Mul') ? tf.mul(a, b) : tf.div(a, b);
    } catch (e) {
      const broadcast = /broadcast/i.test(e.message);
      throw new Answer('rejected', e.message, broadcast ? 'shape' : undefined);
    }
  });
  try {
    const data = await result.data();
    const out = Object.keys(TF_TYPES).find((k) => TF_TYPES[k] === result.dtype);
    if (!out) throw new Error(`TF.js returned a ${result.dtype} tensor`);
    return { dtype: out, shape: result.shape, data };
  } finally {
    result.dispose();
  }
}
