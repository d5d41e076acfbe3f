"""Inputs and outputs as the protocol has them (backends/PROTOCOL.md section 3, "The .npy
files", and section 9 items 17 and 18, the output and input regions): .npy v1.0, little-endian, C order; bf16 as
its raw bits, '<u2'. Suite type names ("i8" ... "f64", "bf16", "boolean") name element types.
"""
import io
import mmap
import os

import numpy as np

NUMPY_TYPES = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
               "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
               "f16": np.float16, "f32": np.float32, "f64": np.float64}
FILE_TYPES = {**NUMPY_TYPES, "bf16": np.uint16, "boolean": np.bool_}  # bf16: raw '<u2' bits


def type_name(dtype):
    """The suite type name of a numpy dtype; "bf16" for ml_dtypes.bfloat16 (or any dtype named
    bfloat16); None for one the suite has no name for."""
    dtype = np.dtype(dtype)
    if dtype.name == "bfloat16":
        return "bf16"
    return next((name for name, t in NUMPY_TYPES.items() if np.dtype(t) == dtype), None)


class InputRegion:
    """The validator's sealed input memory (section 9, item 18), mapped read-only and kept mapped
    while requests name the same path and it keeps its size. An old mapping is dropped, never
    closed: arrays viewing it may still live. A process whose address space is capped below the
    region's size (RLIMIT_AS; the region is as large as the machine's memory, and sparse) maps
    the window of each input instead."""

    def __init__(self):
        self.key, self.map = None, None

    def get(self, path, offset, length):
        """A buffer holding the region's bytes [offset, offset + length) (fewer at its end), and
        where `offset` lies in it."""
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if (path, size) != self.key:
                self.key, self.map = (path, size), None
                try:
                    self.map = mmap.mmap(f.fileno(), size, access=mmap.ACCESS_READ)
                except OSError:
                    pass
            if self.map is not None:
                return self.map, offset
            start, end = offset - offset % mmap.ALLOCATIONGRANULARITY, min(size, offset + length)
            if end <= offset:
                return b"", 0
            window = mmap.mmap(f.fileno(), end - start, access=mmap.ACCESS_READ, offset=start)
            return window, offset - start


INPUTS = InputRegion()
# The longest .npy preamble: magic and version (8), header length (2), header (< 64 KiB).
LONGEST_PREAMBLE = 10 + 65535


def region_input(tensor):
    """The .npy at the input's offset in the input region, viewed in place (read-only)."""
    item = np.dtype(FILE_TYPES.get(tensor["dtype"], np.float64)).itemsize
    data_bytes = item * int(np.prod(tensor["shape"], dtype=np.int64))
    region, offset = INPUTS.get(tensor["path"], tensor["offset"], LONGEST_PREAMBLE + data_bytes)
    where = f"{tensor['path']} at offset {tensor['offset']}"
    if offset + 12 > len(region) or region[offset:offset + 6] != b"\x93NUMPY":
        raise ValueError(f"{where}: not a .npy file")
    version = region[offset + 6]
    length = int.from_bytes(region[offset + 8:offset + (10 if version == 1 else 12)], "little")
    end = offset + (10 if version == 1 else 12) + length
    header = io.BytesIO(region[offset:end])
    np.lib.format.read_magic(header)
    read = np.lib.format.read_array_header_1_0 if version == 1 else np.lib.format.read_array_header_2_0
    shape, fortran_order, dtype = read(header)
    count = int(np.prod(shape, dtype=np.int64))
    if fortran_order or end + count * dtype.itemsize > len(region):
        raise ValueError(f"{where}: Fortran order, or data past the region's {len(region)} bytes")
    return np.frombuffer(region, dtype=dtype, count=count, offset=end).reshape(shape)


def load_input(tensor):
    """Loads one input of a request, from its file or in place from the input region, and checks
    that it says what the request says. bf16 stays raw uint16 bits: view them as the library's
    bf16 type. An input in the region is read-only."""
    if "offset" in tensor:
        array, where = region_input(tensor), f"{tensor['path']} at offset {tensor['offset']}"
    else:
        array, where = np.load(tensor["path"], allow_pickle=False), tensor["path"]
    expected = np.dtype(FILE_TYPES[tensor["dtype"]])
    if array.dtype != expected or list(array.shape) != tensor["shape"]:
        raise ValueError(f"{where} holds {array.dtype} {list(array.shape)}, the request "
                         f"says {tensor['dtype']} {tensor['shape']}")
    return array


def file_array(array, dtype=None):
    """The array as the file holds it: little-endian, C order, 0-d kept 0-d; a bf16 result (any
    2-byte dtype when `dtype` is "bf16") as its raw bits, uint16."""
    array = np.asarray(array)
    if dtype == "bf16" or array.dtype.name == "bfloat16":
        array = array.view(np.uint16)
    # np.asarray keeps a 0-d array 0-d (np.ascontiguousarray would make it 1-d)
    return np.asarray(array, dtype=array.dtype.newbyteorder("<"), order="C")


def save_output(path, result, dtype=None):
    """Writes .npy v1.0 to `path` exactly (np.save(str) would add .npy); returns what it wrote."""
    result = file_array(result, dtype)
    with open(path, "wb") as f:
        np.save(f, result, allow_pickle=False)
    return result


class OutputRegion:
    """The validator's shared memory for outputs, kept mapped while requests name the same path
    and size."""

    def __init__(self):
        self.key, self.map = None, None

    def get(self, offer):
        key = (offer["path"], offer["bytes"])
        if key != self.key:
            if self.map is not None:
                self.map.close()
            self.key, self.map = None, None
            with open(offer["path"], "r+b") as f:  # never "wb": the region's size is sealed
                self.map = mmap.mmap(f.fileno(), offer["bytes"])
            self.key = key
        return self.map


REGION = OutputRegion()


def npy_preamble(array):
    """Magic, version and header of a .npy v1.0 for `array` (numpy pads it to 64 bytes)."""
    f = io.BytesIO()
    np.lib.format.write_array_header_1_0(f, np.lib.format.header_data_from_array_1_0(array))
    return f.getvalue()


def write_output(request, result, dtype=None):
    """Writes the output where the validator reads it fastest: into the shared region that the
    request offers when the whole .npy fits there, else to the file `out`. Returns whether it
    went to the region."""
    result = file_array(result, dtype)
    offer = request.get("out_region")
    if not isinstance(offer, dict):
        save_output(request["out"], result)
        return False
    preamble = npy_preamble(result)
    if len(preamble) + result.nbytes > offer["bytes"]:
        save_output(request["out"], result)
        return False
    try:
        region = REGION.get(offer)
    except OSError:  # the region cannot be opened from here: the file will do
        save_output(request["out"], result)
        return False
    region[:len(preamble)] = preamble
    np.copyto(np.ndarray(result.shape, result.dtype, buffer=region, offset=len(preamble)), result)
    return True
