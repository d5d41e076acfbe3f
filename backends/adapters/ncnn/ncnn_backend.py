#!/usr/bin/env python3
"""The ncnn adapter: ONNX Mul/Div 1-14 and OpenVINO Multiply-1/Divide-1 on Tencent's ncnn (PyPI
ncnn), CPU: a one-layer Net (two Input layers and a BinaryOp, op_type 2 = mul, 3 = div) loaded
from its .param text and run by an Extractor, as an ncnn user runs a converted model.
ncnn computes in float32 only: f32 with the default options, bf16 with opt.use_bf16_storage
(ncnn's own bf16 path; README.md, "Element types"). No integer type is claimed.

    eltwise-validate run --backend-cmd ".venv/bin/python backends/adapters/ncnn/ncnn_backend.py"

With --vulkan (the ncnn-vulkan adapter) the Net computes on ncnn's Vulkan path
(opt.use_vulkan_compute) on the first GPU its loader finds. Without a GPU driver the loader is
pointed at the SwiftShader Vulkan driver that Debian's chromium ships (a software GPU), unless
VK_ICD_FILENAMES is set; the hello names the device (backends/PROTOCOL.md section 9, item 20).

The checks of each op version and the lowering of ONNX legacy and pdpd broadcasting (reshape B)
are the adapter kit's (backends/kit/python). numpy broadcasting is lowered as ncnn's converter
pnnx lowers it (README.md, "Broadcasting").
"""
import os
import sys

import eltwise_adapter_kit as kit

VULKAN = "--vulkan" in sys.argv[1:]
SWIFTSHADER_ICD = "/usr/lib/chromium/vk_swiftshader_icd.json"
if VULKAN and "VK_ICD_FILENAMES" not in os.environ and os.path.exists(SWIFTSHADER_ICD):
    os.environ["VK_ICD_FILENAMES"] = SWIFTSHADER_ICD  # before ncnn creates its Vulkan instance

kit.protect_stdout()  # before ncnn is loaded

import ncnn  # noqa: E402
import numpy as np  # noqa: E402

# BinaryOp's OperationType (src/layer/binaryop.h): 2 = Operation_MUL, 3 = Operation_DIV.
MUL, DIV = 2, 3
PARAM = ("7767517\n3 3\n"
         "Input a 0 1 a\n"
         "Input b 0 1 b\n"
         "BinaryOp op 2 1 a b c 0={op_type}\n")
NCNN_TYPES = ("f32", "bf16")
MAX_DIMS = 4  # a Mat is w, h, d, c at most


def make_net(op_type, bf16):
    """The one-layer Net; options left at ncnn's defaults except bf16 storage for bf16."""
    net = ncnn.Net()
    net.opt.use_bf16_storage = bf16
    net.opt.use_vulkan_compute = VULKAN
    if net.load_param_mem(PARAM.format(op_type=op_type)) != 0:
        raise kit.Failed("ncnn could not load the BinaryOp param text")
    if net.load_model(ncnn.DataReaderFromEmpty()) != 0:  # BinaryOp has no weights
        raise kit.Failed("ncnn could not load the (empty) model")
    return net


_nets = {}


def net_for(op_type, bf16):
    key = (op_type, bf16)
    if key not in _nets:
        _nets[key] = make_net(op_type, bf16)
    return _nets[key]


def ncnn_shapes(a, b):
    """The shapes fed to ncnn. With unequal ranks ncnn aligns a lower-rank blob to the inner
    axes, or with one dim to the channels ("the opposite direction of numpy", its
    binaryop-broadcasting.md), so pnnx gives the lower-rank input leading 1s
    (insert_reshape_numpy_binaryop_broadcast); equal ranks broadcast dims of 1 as numpy does.
    A rank-0 input becomes [1] (a Mat has at least one dim); above 4 dims, axes that are 1 in
    both inputs (1 in the output too) are dropped, first to last, as pnnx drops the batch axis."""
    if 0 in a or 0 in b:
        raise kit.Unsupported("ncnn has no zero-size tensor: a Mat without elements is empty(), "
                              "a missing blob")
    rank = max(len(a), len(b), 1)
    a, b = (1,) * (rank - len(a)) + a, (1,) * (rank - len(b)) + b
    ones = [i for i in range(rank) if a[i] == 1 and b[i] == 1][:max(rank - MAX_DIMS, 0)]
    a = tuple(d for i, d in enumerate(a) if i not in ones)
    b = tuple(d for i, d in enumerate(b) if i not in ones)
    if len(a) > MAX_DIMS:
        raise kit.Unsupported(f"ncnn Mats have at most {MAX_DIMS} dims (w, h, d, c): "
                              f"{a} and {b} after dropping the axes that are 1 in both")
    return a, b


def to_f32(array, dtype):
    """ncnn takes float32 blobs; bf16 bits are widened exactly (the Net casts them back to
    bf16 itself, ncnn's cast_float32_to_bfloat16, exact for bf16 values)."""
    if dtype == "bf16":
        return (array.astype(np.uint32) << 16).view(np.float32)
    return np.array(array, dtype=np.float32)  # a copy: region inputs are read-only views


def to_bf16(result):
    """The Net computed in bf16 storage and extract() widened the result to float32: its low
    16 bits are zero, so the top half is the bf16 result as ncnn rounded it."""
    bits = result.view(np.uint32)
    if np.any(bits & 0xFFFF):
        raise kit.Failed("ncnn returned float32 values that are not bf16 under use_bf16_storage")
    return kit.Output((bits >> 16).astype(np.uint16), "bf16")


def run(op_type, bf16, a, b):
    ex = net_for(op_type, bf16).create_extractor()
    if ex.input("a", ncnn.Mat(a)) != 0 or ex.input("b", ncnn.Mat(b)) != 0:
        raise kit.Failed("ncnn Extractor.input failed")
    status, out = ex.extract("c")  # type 0: float32, unpacked
    if status != 0:
        raise kit.Failed(f"ncnn Extractor.extract returned {status}")
    return np.array(out)


def evaluate(request):
    plan, a, b = kit.load_planned(request)
    a_full, b_full = a.shape, b.shape
    a_shape, b_shape = ncnn_shapes(a.shape, b.shape)
    bf16 = plan.dtype == "bf16"
    a = to_f32(a, plan.dtype).reshape(a_shape)
    b = to_f32(b, plan.dtype).reshape(b_shape)
    op_type = DIV if kit.is_division(plan.op) else MUL  # m_pythondiv changes no float quotient
    result = run(op_type, bf16, a, b)
    if result.shape == np.broadcast_shapes(a_shape, b_shape):  # else left for the validator
        result = result.reshape(np.broadcast_shapes(a_full, b_full))  # the axes of 1 taken away
    return to_bf16(result) if bf16 else result


def gpu():
    """The Vulkan device ncnn uses (device 0), as backends/PROTOCOL.md section 9 item 20 names
    it; no device is a start-up failure, not a silent CPU run."""
    if ncnn.get_gpu_count() < 1:
        raise SystemExit("ncnn-vulkan: ncnn found no Vulkan device (is libvulkan1 installed, "
                         "and a Vulkan driver or VK_ICD_FILENAMES there?)")
    info = ncnn.get_gpu_info(0)
    name = info.device_name()
    return {"api": "vulkan", "device": name, "vendor": f"0x{info.vendor_id():04x}",
            "fallback": "SwiftShader" in name, "features": []}


def hello():
    # On Vulkan, bf16 storage needs the device's support, which the Python binding does not
    # expose; on SwiftShader ncnn ignores use_bf16_storage and returns f32 values (ncnn-3), so
    # bf16 is not claimed there (UNSUPPORTED) rather than converted by the adapter.
    ops = kit.claims(("f32",) if VULKAN else NCNN_TYPES, truncating_division=False)
    if not VULKAN:
        return kit.hello("ncnn", ncnn.__version__, ops)
    greeting = kit.hello("ncnn-vulkan", ncnn.__version__, ops)
    greeting["gpu"] = gpu()
    return greeting


if __name__ == "__main__":
    kit.serve(lambda request: kit.answer(request, evaluate), hello())
