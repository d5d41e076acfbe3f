"""Writes a one-op TensorFlow Lite model (schema version 3, file identifier "TFL3"):
C = OP(A, B) with the builtin MUL, DIV or FLOOR_DIV, two input tensors and one output tensor,
no constant data, no quantization parameters.

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


def _tensor(name, type_code, shape):
    # buffer 0 is the empty sentinel buffer: the tensor has no constant data.
    return schema.TensorT(shape=list(shape), type=type_code, buffer=0, name=name)


def build(op, dtype_a, shape_a, dtype_b, shape_b, shape_out, dtype_out=None):
    """The .tflite bytes of C = op(A, B). `op`: "MUL", "DIV" or "FLOOR_DIV"; dtypes are
    protocol type names; the output tensor gets `dtype_out` (default A's) and `shape_out`
    (the kernel resizes it in Prepare anyway)."""
    code, options_type, options_class = OPERATORS[op]
    operator_code = schema.OperatorCodeT(deprecatedBuiltinCode=min(code, 127), builtinCode=code,
                                         version=1)
    operator = schema.OperatorT(opcodeIndex=0, inputs=[0, 1], outputs=[2],
                                builtinOptionsType=options_type, builtinOptions=options_class())
    subgraph = schema.SubGraphT(
        tensors=[_tensor("A", TENSOR_TYPES[dtype_a], shape_a),
                 _tensor("B", TENSOR_TYPES[dtype_b], shape_b),
                 _tensor("C", TENSOR_TYPES[dtype_out or dtype_a], shape_out)],
        inputs=[0, 1], outputs=[2], operators=[operator], name="main")
    model = schema.ModelT(version=SCHEMA_VERSION, operatorCodes=[operator_code],
                          subgraphs=[subgraph], description="eltwise one-op model",
                          buffers=[schema.BufferT()])
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=FILE_IDENTIFIER)
    return bytes(builder.Output())
