"""Writes a one-op TensorFlow Lite model (schema version 3, file identifier "TFL3"):
C = OP(A, B) with the builtin MUL, DIV or FLOOR_DIV and one output tensor, no quantization
parameters. A and B are graph inputs (with static shapes, or with every dimension -1 in
shape_signature) or constants whose data is a buffer of the model (the graph forms of
backends/PROTOCOL.md).

Uses only the generated flatbuffer code that ai_edge_litert ships (schema_py_generated, its
object API) and the `flatbuffers` package; no TensorFlow.
"""
from ai_edge_litert import schema_py_generated as schema
import flatbuffers

SCHEMA_VERSION = 3
FILE_IDENTIFIER = b"TFL3"

# Protocol type name -> TFLite TensorType.
TENSOR_TYPES = {"i8": schema.TensorType.INT8, "i16": schema.TensorType.INT16,
                "i32": schema.TensorType.INT32, "i64": schema.TensorType.INT64,
                "u8": schema.TensorType.UINT8, "u16": schema.TensorType.UINT16,
                "u32": schema.TensorType.UINT32, "u64": schema.TensorType.UINT64,
                "f16": schema.TensorType.FLOAT16, "bf16": schema.TensorType.BFLOAT16,
                "f32": schema.TensorType.FLOAT32, "f64": schema.TensorType.FLOAT64,
                "boolean": schema.TensorType.BOOL}

# Builtin operator name -> (BuiltinOperator code, BuiltinOptions union tag, options class).
OPERATORS = {"MUL": (schema.BuiltinOperator.MUL, schema.BuiltinOptions.MulOptions,
                     schema.MulOptionsT),
             "DIV": (schema.BuiltinOperator.DIV, schema.BuiltinOptions.DivOptions,
                     schema.DivOptionsT),
             "FLOOR_DIV": (schema.BuiltinOperator.FLOOR_DIV, schema.BuiltinOptions.FloorDivOptions,
                           schema.FloorDivOptionsT)}


class _ConstantBuffer(schema.BufferT):
    """A buffer holding constant data, 16-byte aligned like the converter's (the schema's
    `force_align: 16`, which the generated Python Pack does not apply)."""

    def Pack(self, builder):
        builder.StartVector(1, len(self.data), 16)
        builder.head -= len(self.data)
        builder.Bytes[builder.head:builder.head + len(self.data)] = self.data
        data = builder.EndVector()
        schema.BufferStart(builder)
        schema.BufferAddData(builder, data)
        return schema.BufferEnd(builder)


def _tensor(name, type_code, shape, buffer=0, dynamic=False):
    # buffer 0 is the empty sentinel buffer: the tensor has no constant data. A dynamic tensor
    # has -1 for every dimension in shape_signature (and 1 in shape, as the converter writes it).
    if dynamic:
        return schema.TensorT(shape=[1] * len(shape), shapeSignature=[-1] * len(shape),
                              type=type_code, buffer=0, name=name)
    return schema.TensorT(shape=list(shape), type=type_code, buffer=buffer, name=name)


def build(op, dtype_a, shape_a, dtype_b, shape_b, shape_out, dtype_out=None, a_data=None,
          b_data=None, dynamic=False):
    """The .tflite bytes of C = op(A, B). `op`: "MUL", "DIV" or "FLOOR_DIV"; dtypes are
    protocol type names; the output tensor gets `dtype_out` (default A's) and `shape_out`
    (the kernel resizes it in Prepare anyway). `a_data`/`b_data` (bytes): A/B is a constant
    holding them, not a graph input; `dynamic`: the graph inputs have unknown dimensions."""
    buffers, tensors = [schema.BufferT()], []
    for name, dtype, shape, data in (("A", dtype_a, shape_a, a_data),
                                     ("B", dtype_b, shape_b, b_data)):
        if data is not None:
            buffers.append(_ConstantBuffer(data=data))
        tensors.append(_tensor(name, TENSOR_TYPES[dtype], shape,
                               len(buffers) - 1 if data is not None else 0,
                               dynamic and data is None))
    code, options_type, options_class = OPERATORS[op]
    operator_code = schema.OperatorCodeT(deprecatedBuiltinCode=min(code, 127), builtinCode=code,
                                         version=1)
    operator = schema.OperatorT(opcodeIndex=0, inputs=[0, 1], outputs=[2],
                                builtinOptionsType=options_type, builtinOptions=options_class())
    tensors.append(_tensor("C", TENSOR_TYPES[dtype_out or dtype_a], shape_out, 0, dynamic))
    inputs = [i for i, data in ((0, a_data), (1, b_data)) if data is None]
    subgraph = schema.SubGraphT(tensors=tensors, inputs=inputs, outputs=[2],
                                operators=[operator], name="main")
    model = schema.ModelT(version=SCHEMA_VERSION, operatorCodes=[operator_code],
                          subgraphs=[subgraph], description="eltwise one-op model",
                          buffers=buffers)
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=FILE_IDENTIFIER)
    return bytes(builder.Output())
