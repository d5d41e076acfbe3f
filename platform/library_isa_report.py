"""Prints, for each library importable here, the kernel path it reports having picked for this
CPU, in the library's own words: `run --platform` changes these, and docs/platforms.md shows the
output on the host, under the ISA knobs and on emulated CPU models. Run with the interpreter of
the libraries (.venv/bin/python; Debian's /usr/bin/python3 for Debian's numpy and PyTorch):
    .venv/bin/python platform/library_isa_report.py
    NPY_DISABLE_CPU_FEATURES="X86_V4 AVX512_ICL AVX512_SPR" .venv/bin/python platform/library_isa_report.py
    scripts/x86_exec.sh --cpu EPYC-Milan .venv/bin/python platform/library_isa_report.py
XLA has no such report: the EVEX-encoded (AVX-512) instructions in the object code it emits for
an f16 multiply are counted instead (objdump; an EVEX instruction's first byte is 0x62)."""
import glob
import importlib.util
import subprocess
import tempfile


def numpy_report():
    import numpy
    try:
        from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    except ImportError:  # numpy 1.x
        from numpy.core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    on = [t for t in __cpu_dispatch__ if __cpu_features__.get(t)]
    return f"numpy {numpy.__version__}: dispatch targets in use {' '.join(on) or '(baseline only)'}"


def torch_report():
    import torch
    line = [l for l in torch.__config__.show().splitlines() if "CPU capability" in l]
    return f"torch {torch.__version__}: {line[0].strip() if line else 'no capability line'}"


def openvino_report():
    import numpy as np
    import openvino as ov
    from openvino import opset1
    a = opset1.parameter([1024], np.float32)
    model = ov.Model([opset1.multiply(a, a)], [a])
    runtime = ov.Core().compile_model(model, "CPU").get_runtime_model()
    kinds = [f'{op.get_rt_info()["layerType"].astype(str)} '
             f'{op.get_rt_info()["primitiveType"].astype(str)}' for op in runtime.get_ordered_ops()]
    inner = [k for k in kinds if not k.startswith(("Input", "Output"))]
    return f"openvino {ov.get_version().split('-')[0]}: an f32 Multiply runs as {', '.join(inner)}"


def xla_report():
    import os
    import jax
    import jax.numpy as jnp
    with tempfile.TemporaryDirectory() as dump:
        # XLA reads XLA_FLAGS when the backend starts: before the first computation.
        os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + f" --xla_dump_to={dump}"
        x = jnp.arange(1, 4097).astype(jnp.float16)
        jax.jit(lambda a, b: a * b)(x, x).block_until_ready()
        objects = glob.glob(f"{dump}/*lambda*.o")
        text = "".join(subprocess.run(["objdump", "-d", o], capture_output=True, text=True).stdout
                       for o in objects)
    fields = [line.split("\t") for line in text.splitlines()]
    evex = sum(1 for f in fields if len(f) > 2 and f[1].startswith("62 ") and f[2].startswith("v"))
    return f"jax {jax.__version__} (XLA): {evex} AVX-512 instructions in an f16 multiply's code"


REPORTS = {"numpy": numpy_report, "torch": torch_report, "openvino": openvino_report,
           "jax": xla_report}

for module, report in REPORTS.items():
    if importlib.util.find_spec(module) is None:
        continue
    try:
        print(report(), flush=True)
    except Exception as e:  # one library's failure does not hide the others' reports
        print(f"{module}: no report ({type(e).__name__}: {e})", flush=True)
