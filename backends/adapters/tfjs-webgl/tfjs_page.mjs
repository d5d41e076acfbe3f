// The page side of the TensorFlow.js adapters (tfjs_backend.mjs): tf.mul, tf.div, tf.floorDiv on the
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

// The request was checked and its broadcast rule lowered in Node (request.prepared: the kit's
// plan): B gets its lowered shape, and the op its TF.js function.
export async function evaluate(request, inputs) {
  const { floor, bShape } = request.prepared;
  const dtype = TF_TYPES[request.a.dtype];
  if (!dtype) throw new Answer('unsupported', `TF.js has no ${request.a.dtype} tensor`);
  const divide = request.op.includes('Div');
  const result = tf.tidy(() => {
    const a = tf.tensor(inputs.a, request.a.shape, dtype);
    const b = tf.tensor(inputs.b, bShape || request.b.shape, dtype);
    try {
      if (!divide) return tf.mul(a, b);
      return floor ? tf.floorDiv(a, b) : tf.div(a, b);
    } catch (e) {
      // Numpy broadcasting is left to TF.js ("Operands could not be broadcast together").
      throw new Answer('rejected', e.message, /broadcast/i.test(e.message) ? 'shape' : undefined);
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
