// The suite's element types (backends/PROTOCOL.md section 3) as Node sees them: the .npy descr,
// the typed array the bytes are viewed as, and the ONNX TensorProto data type. bf16 is raw
// '<u2' bits (Uint16Array), f16 too; boolean only appears in invalid cases.
export const TYPES = {
  i8: { descr: '|i1', array: Int8Array, onnx: 'INT8' },
  i16: { descr: '<i2', array: Int16Array, onnx: 'INT16' },
  i32: { descr: '<i4', array: Int32Array, onnx: 'INT32' },
  i64: { descr: '<i8', array: BigInt64Array, onnx: 'INT64' },
  u8: { descr: '|u1', array: Uint8Array, onnx: 'UINT8' },
  u16: { descr: '<u2', array: Uint16Array, onnx: 'UINT16' },
  u32: { descr: '<u4', array: Uint32Array, onnx: 'UINT32' },
  u64: { descr: '<u8', array: BigUint64Array, onnx: 'UINT64' },
  f16: { descr: '<f2', array: Uint16Array, onnx: 'FLOAT16' },
  bf16: { descr: '<u2', array: Uint16Array, onnx: 'BFLOAT16' },
  f32: { descr: '<f4', array: Float32Array, onnx: 'FLOAT' },
  f64: { descr: '<f8', array: Float64Array, onnx: 'DOUBLE' },
  boolean: { descr: '|b1', array: Uint8Array, onnx: 'BOOL' },
};

export function elementCount(shape) {
  return shape.reduce((n, d) => n * d, 1);
}
