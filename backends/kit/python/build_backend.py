"""The kit's build backend (PEP 517, PEP 660 for `pip install -e`), standard library only: it
writes the wheel straight from eltwise_adapter_kit/ into the folder the installer names, and
writes nothing into the source tree. setuptools, which it replaces, built in the tree (build/ and
an .egg-info: a read-only checkout could not be installed) and came from the index or the
environment; this needs nothing, so `pip install --no-index` works with build isolation on.

The package's metadata is here (PROJECT): this backend is its only reader. A wheel without
eltwise_adapter_kit/op_table.json (say, a copy of the kit whose table was a dangling symlink)
is a build error, not an import error in the installed adapter.
"""
import base64
import hashlib
import io
import json
import os
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
PACKAGE = "eltwise_adapter_kit"
TABLE = f"{PACKAGE}/op_table.json"
PROJECT = {
    "Name": "eltwise-adapter-kit",
    "Version": "1.0.0",
    "Summary": "The protocol loop, checks and I/O of eltwise-validate's backend adapters",
    "Requires-Python": ">=3.9",
    "Requires-Dist": ["numpy", 'onnx; extra == "onnx"', 'ml_dtypes; extra == "onnx"'],
    "Provides-Extra": ["onnx"],
}
SCRIPTS = {"eltwise-adapter-smoke": f"{PACKAGE}.smoke:main"}
DIST = f"{PACKAGE}-{PROJECT['Version']}"
DIST_INFO = f"{DIST}.dist-info"
TAG = "py3-none-any"
FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # the same files give the same wheel


def metadata_files():
    """(name in .dist-info, text) of the wheel's metadata but RECORD."""
    lines = ["Metadata-Version: 2.1"]
    for key, value in PROJECT.items():
        lines += [f"{key}: {v}" for v in (value if isinstance(value, list) else [value])]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    metadata = "\n".join(lines) + "\nDescription-Content-Type: text/markdown\n\n" + readme
    wheel = f"Wheel-Version: 1.0\nGenerator: {PACKAGE} build_backend\nRoot-Is-Purelib: true\n" \
            f"Tag: {TAG}\n"
    scripts = "[console_scripts]\n" + "".join(f"{k} = {v}\n" for k, v in SCRIPTS.items())
    return [("METADATA", metadata), ("WHEEL", wheel), ("entry_points.txt", scripts)]


def package_files():
    """(path in the wheel, bytes) of the package: its modules and the op-version table."""
    table = ROOT / TABLE
    try:
        data = table.read_bytes()  # through a symlink, the file it names
        rows = json.loads(data)
    except (OSError, ValueError) as e:
        raise RuntimeError(f"{table}: the op-version table, a copy of core/op_table.json, "
                           f"cannot be read ({e}): the kit would fail at import") from None
    if not isinstance(rows, list) or not rows:
        raise RuntimeError(f"{table}: not the op-version table (a JSON list of op versions)")
    modules = sorted((ROOT / PACKAGE).glob("*.py"))
    return [(f"{PACKAGE}/{m.name}", m.read_bytes()) for m in modules] + [(TABLE, data)]


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}\n"


def write_wheel(folder, files):
    """The wheel of `files` (path, bytes) plus the metadata; returns its file name."""
    files = files + [(f"{DIST_INFO}/{n}", t.encode()) for n, t in metadata_files()]
    record = "".join(record_line(n, d) for n, d in files) + f"{DIST_INFO}/RECORD,,\n"
    name = f"{DIST}-{TAG}.whl"
    with zipfile.ZipFile(Path(folder) / name, "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files + [(f"{DIST_INFO}/RECORD", record.encode())]:
            info = zipfile.ZipInfo(path, FIXED_TIME)
            info.external_attr = 0o644 << 16
            wheel.writestr(info, data, zipfile.ZIP_DEFLATED)
    return name


def get_requires_for_build_wheel(config_settings=None):
    return []


get_requires_for_build_sdist = get_requires_for_build_editable = get_requires_for_build_wheel


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    folder = Path(metadata_directory) / DIST_INFO
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in metadata_files():
        (folder / name).write_text(text, encoding="utf-8")
    return DIST_INFO


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return write_wheel(wheel_directory, package_files())


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """A wheel whose .pth puts this folder on sys.path: edits take effect without a reinstall."""
    package_files()  # the same checks: a missing table fails here too
    return write_wheel(wheel_directory, [(f"{PACKAGE}.pth", f"{ROOT}\n".encode())])


def build_sdist(sdist_directory, config_settings=None):
    name = f"{DIST}.tar.gz"
    files = [("pyproject.toml", (ROOT / "pyproject.toml").read_bytes()),
             ("build_backend.py", (ROOT / "build_backend.py").read_bytes()),
             ("README.md", (ROOT / "README.md").read_bytes()),
             ("PKG-INFO", metadata_files()[0][1].encode())] + package_files()
    with tarfile.open(Path(sdist_directory) / name, "w:gz", format=tarfile.PAX_FORMAT) as sdist:
        for path, data in files:
            info = tarfile.TarInfo(f"{DIST}/{path}")
            info.size, info.mode = len(data), 0o644
            sdist.addfile(info, io.BytesIO(data))
    return name
