#!/usr/bin/env python3
"""The tinygrad adapter: ONNX Mul/Div 1-14 and OpenVINO Multiply-1/Divide-1 on tinygrad's Tensor, on
one device: `--device CPU` (tinygrad's CPU device with its default renderer CLANG: C source compiled
by the `clang` command), `--device LLVM` (the CPU device with the LLVM renderer: LLVM IR compiled
through libLLVM's C API), `--device PYTHON` (tinygrad's uop interpreter in Python) or `--device CL`
(tinygrad's OpenCL device: OpenCL C kernels built by the first OpenCL platform, PoCL's CPU device
where there is no GPU).
Tensor.mul; Tensor.div (true division for floats); Tensor.div(rounding_mode="trunc") for ONNX Div
and Divide-1 with m_pythondiv=false, rounding_mode="floor" for m_pythondiv=true.
README.md (backends/adapters/tinygrad-cpu/) has the mapping.

    eltwise-validate run --backend-cmd ".venv/bin/python backends/adapters/tinygrad-cpu/tinygrad_backend.py --device CPU"

The checks of each op version and the lowering of ONNX legacy and pdpd broadcasting (reshape B)
are the adapter kit's (backends/kit/python).
"""
import argparse
import ctypes
import os

# tinygrad 0.14 picks its device and the device's renderer from DEV (CPU=1, CPU_LLVM=1 are
# deprecated): DEV=CPU:CLANG, DEV=CPU:LLVM, DEV=PYTHON.
DEVICES = {"CPU": ("CPU", "CPU:CLANG"), "LLVM": ("CPU", "CPU:LLVM"), "PYTHON": ("PYTHON", "PYTHON"),
           "CL": ("CL", "CL")}
ARGS = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ARGS.add_argument("--device", choices=sorted(DEVICES), default="CPU")
DEVICE_NAME = ARGS.parse_args().device
DEVICE, os.environ["DEV"] = DEVICES[DEVICE_NAME]
# No on-disk caches (~/.cache/tinygrad): every kernel new to this process is really compiled
# here, so the compilations counted below are compilations, and no run depends on an earlier one.
os.environ.setdefault("CACHELEVEL", "0")
if DEVICE_NAME == "CL":
    os.environ.setdefault("POCL_KERNEL_CACHE", "0")  # PoCL's own cache of built kernels, likewise

import eltwise_adapter_kit as kit  # noqa: E402

kit.protect_stdout()  # before tinygrad is loaded (DEBUG output goes to stdout)

import numpy as np  # noqa: E402
from tinygrad import Device, Tensor, dtypes  # noqa: E402
from tinygrad.codegen import to_program_cache  # noqa: E402

TINYGRAD_VERSION = "0.14.0"  # tinygrad has no __version__; the lock pins this one
# Every element type the suite knows is a tinygrad dtype.
TYPES = {"i8": dtypes.int8, "i16": dtypes.int16, "i32": dtypes.int32, "i64": dtypes.int64,
         "u8": dtypes.uint8, "u16": dtypes.uint16, "u32": dtypes.uint32, "u64": dtypes.uint64,
         "f16": dtypes.float16, "bf16": dtypes.bfloat16, "f32": dtypes.float32,
         "f64": dtypes.float64}


def library_version():
    try:
        from importlib.metadata import version
        return version("tinygrad")
    except Exception:  # noqa: BLE001  not installed as a distribution (a checkout)
        return TINYGRAD_VERSION


def to_tensor(array, dtype):
    """bf16 arrives as raw uint16 bits: a tensor of them, bitcast to tinygrad's bfloat16. The
    arrays are C-ordered (the kit reads .npy data in place); a 0-d array stays 0-d, which tinygrad
    makes a constant of its graph (README.md, "Data path"). The CL device's copy-in takes the
    address of a writable buffer only (ctypes from_buffer: "underlying buffer is not writable",
    tinygrad issue 9809), so a read-only shared-memory input is copied for it first."""
    if DEVICE == "CL" and not array.flags.writeable:
        array = array.copy()
    if dtype == "bf16":
        return Tensor(array, device=DEVICE).bitcast(dtypes.bfloat16)
    return Tensor(array, device=DEVICE)


def to_numpy(tensor):
    """bf16 leaves as its raw bits (a bitcast to uint16, fused into the kernel), labelled bf16."""
    if tensor.dtype == dtypes.bfloat16:
        return kit.Output(tensor.bitcast(dtypes.uint16).numpy(), "bf16")
    return tensor.numpy()


def compute(plan, a, b):
    if not kit.is_division(plan.op):
        return a.mul(b)
    if plan.dtype.startswith(("f", "bf")):
        return a.div(b)  # true division; m_pythondiv has no effect on floats
    # ONNX Div and Divide-1 with m_pythondiv=false truncate; m_pythondiv=true floors.
    return a.div(b, rounding_mode="floor" if plan.floor else "trunc")


def no_check(a, b):
    """numpy broadcasting is left to tinygrad, which checks it when the result's shape is known."""


def evaluate(request):
    plan, a, b = kit.load_planned(request, no_check, to_tensor)
    result = compute(plan, a, b)
    try:
        result.shape  # tinygrad is lazy: its broadcast check runs here
    except IndexError as e:  # "shape mismatch: objects cannot be broadcast ..."
        raise kit.Rejected(str(e), "shape") from None
    kernels = len(to_program_cache)
    try:
        return to_numpy(result)
    finally:
        # Each new entry of tinygrad's program cache is one kernel lowered and compiled.
        if len(to_program_cache) > kernels:
            kit.compiled(len(to_program_cache) - kernels)


def compiler():
    """What compiles tinygrad's kernels on this device, as the hello's compile extension says."""
    renderer = Device[DEVICE].renderer
    name = type(renderer).__name__
    if DEVICE_NAME == "CPU":
        cc = os.environ.get("CC", "clang")
        flags = " ".join(renderer.compiler.args)
        return (f"{name}: C source, `{cc} -c -x c -O2 -fPIC -ffreestanding -fno-math-errno "
                f"-nostdlib -fno-ident --target={renderer.compiler.arch}-none-unknown-elf {flags}` "
                f"(no -ffast-math), one kernel per op, dtype and shape")
    if DEVICE_NAME == "LLVM":
        return f"{name}: LLVM IR through libLLVM's C API ({llvm_library()}), default<O2> passes"
    if DEVICE_NAME == "CL":
        return (f"{name}: OpenCL C source built by the OpenCL driver's clBuildProgram "
                f"({Device[DEVICE].driver_version}), no build options")
    return f"{name}: uops pickled and interpreted element by element in Python (no machine code)"


def llvm_library():
    from tinygrad.runtime.autogen import llvm
    return os.path.basename(llvm.dll._name)


def check_llvm():
    """tinygrad 0.14 writes LLVM IR with opaque-pointer semantics (a `float*` loaded as
    `<4 x float>`): LLVM 14 and 15 parse it with typed pointers and refuse every vectorised kernel
    (tinygrad issue 11943). LLVM 17 and later have only opaque pointers; LLVMGetVersion exists
    from LLVM 16 on. Refuse to start on an older libLLVM rather than answer `error` per case."""
    from tinygrad.runtime.autogen import llvm
    major = ctypes.c_uint()
    try:
        llvm.dll.LLVMGetVersion(ctypes.byref(major), ctypes.byref(ctypes.c_uint()),
                                ctypes.byref(ctypes.c_uint()))
    except AttributeError:
        major.value = 0  # before LLVM 16
    if major.value < 17:
        raise SystemExit(f"tinygrad's LLVM device needs libLLVM 17 or later (opaque pointers); "
                         f"it loaded {llvm_library()}: on Debian 12, apt-get install libllvm19, "
                         f"or point LLVM_PATH at a libLLVM.so of LLVM 17 or later")


def warm_up():
    """One small kernel before the hello: opens the device (the CPU device compiles its worker
    programs then), so that the first case does not pay for it."""
    (Tensor(np.arange(3, dtype=np.float32), device=DEVICE) * 2).numpy()


def cl_info(param, kind):
    """One clGetDeviceInfo value of the device tinygrad opened."""
    from tinygrad.runtime.autogen import opencl as cl
    size = ctypes.c_size_t()
    device = Device[DEVICE].cl_dev
    cl.clGetDeviceInfo(device, param, 0, None, ctypes.byref(size))
    value = (ctypes.c_char * size.value)() if kind is str else kind()
    cl.clGetDeviceInfo(device, param, ctypes.sizeof(value), ctypes.byref(value), None)
    return value.value.decode().rstrip("\0") if kind is str else value.value


def gpu():
    """The OpenCL device tinygrad opened, as backends/PROTOCOL.md section 9 item 20 names it: a
    CPU-type device (PoCL's) is a fallback, not a GPU; its extensions are the features a
    profile's gpu_has names ("cl_khr_fp16")."""
    from tinygrad.runtime.autogen import opencl as cl
    d = Device[DEVICE]
    return {"api": "opencl", "device": d.device_name,
            "vendor": cl_info(cl.CL_DEVICE_VENDOR, str),
            "description": f"{cl_info(cl.CL_DEVICE_VERSION, str)}, driver {d.driver_version}",
            "fallback": bool(cl_info(cl.CL_DEVICE_TYPE, ctypes.c_uint64) & cl.CL_DEVICE_TYPE_CPU),
            "features": sorted(d.device_exts)}


def hello():
    ops = kit.claims(TYPES, truncating_division=True)
    warm_up()
    compile_info = {"compiler": compiler(), "target": f"tinygrad {DEVICE_NAME} device "
                    f"(DEV={os.environ['DEV']}), {Device[DEVICE].renderer.target}",
                    "shapes": "static", "latency_seconds": LATENCY[DEVICE_NAME]}
    greeting = kit.hello(f"tinygrad-{DEVICE_NAME.lower()}", library_version(), ops,
                         compile=compile_info)
    if DEVICE_NAME == "CL":
        greeting["gpu"] = gpu()
    return greeting


# The worst time one case's kernel took to build here (README.md, "Speed"), seconds.
LATENCY = {"CPU": 2, "LLVM": 2, "PYTHON": 2, "CL": 2}

if __name__ == "__main__":
    if DEVICE_NAME == "LLVM":
        check_llvm()
    kit.serve(lambda request: kit.answer(request, evaluate), hello())
