"""The judge's element comparison (comparison::same_element, docs/SEMANTICS.md section 2.5): two
elements are the same when their bits are, or when both are NaN, of any sign and payload (IEEE 754
leaves open which NaN comes out). -0 and +0 differ. np.array_equal gets both wrong (NaN != NaN,
-0 == +0), so code of the kit comparing outputs uses this instead.
"""
import numpy as np

from .tensors import FILE_TYPES

# A float's infinity, as bits: with the sign cleared, anything above it is a NaN.
INFINITY_BITS = {"f16": 0x7C00, "bf16": 0x7F80, "f32": 0x7F800000, "f64": 0x7FF0000000000000}
UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def element_bits(dtype, array):
    """The elements' bits as unsigned integers. The array must hold suite type `dtype` as the
    kit's files do (tensors.FILE_TYPES); bf16 also as ml_dtypes.bfloat16 (any 2-byte type)."""
    array = np.ascontiguousarray(array)
    if dtype not in FILE_TYPES:
        raise ValueError(f"same_outputs: unknown element type {dtype!r}")
    file_type = np.dtype(FILE_TYPES[dtype])
    if array.dtype != file_type and not (dtype == "bf16" and array.dtype.itemsize == 2):
        raise ValueError(f"same_outputs: a {dtype} output held as {array.dtype}, not {file_type}")
    return array.view(UNSIGNED[array.dtype.itemsize])


def same_elements(dtype, actual, expected):
    """Element by element (numpy broadcasting), whether two arrays of suite type `dtype` hold the
    same element: the same bits, or both NaN."""
    x, y = element_bits(dtype, actual), element_bits(dtype, expected)
    same = x == y
    if dtype in INFINITY_BITS:
        magnitude = x.dtype.type((1 << (8 * x.dtype.itemsize - 1)) - 1)  # the sign cleared
        infinity = x.dtype.type(INFINITY_BITS[dtype])
        same |= ((x & magnitude) > infinity) & ((y & magnitude) > infinity)
    return same


def same_outputs(dtype, actual, expected):
    """Whether two outputs of suite type `dtype` have the same shape and the same elements."""
    return np.shape(actual) == np.shape(expected) and bool(np.all(same_elements(dtype, actual,
                                                                                 expected)))
