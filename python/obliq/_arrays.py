"""Array intake: numpy arrays, anything with __dlpack__ (torch, jax on the CPU) or nested lists.

Arrays are taken as they are (no copy) when they are C-contiguous float32/float64 on the CPU;
wrong dtypes raise TypeError and wrong shapes ValueError, naming the argument.
"""
import numpy as np

FLOATS = (np.dtype(np.float64), np.dtype(np.float32))


def as_array(x, name):
    """A numpy view of x (zero-copy for numpy and DLPack CPU arrays)."""
    if isinstance(x, np.ndarray):
        return x
    if hasattr(x, "__dlpack__") and not isinstance(x, (list, tuple)):
        try:
            return np.from_dlpack(x)
        except (BufferError, RuntimeError, TypeError) as err:
            raise TypeError(f"{name}: cannot read this array on the CPU through DLPack ({err})") from err
    try:
        return np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise TypeError(f"{name}: expected a float32/float64 array, got {type(x).__name__} ({err})") from err


def as_float_array(x, name, dtype=None):
    """as_array, requiring float32/float64 (and `dtype` when given)."""
    a = as_array(x, name)
    if a.dtype not in FLOATS:
        raise TypeError(f"{name}: dtype must be float64 or float32, not {a.dtype}")
    if dtype is not None and a.dtype != dtype:
        raise TypeError(f"{name}: dtype {a.dtype} differs from the other arrays' {np.dtype(dtype)}")
    return a


def contiguous(a):
    """a itself when C-contiguous, else a C-contiguous copy."""
    return a if a.flags.c_contiguous else np.ascontiguousarray(a)


def check_shape(a, name, per_item, count=None):
    """a must be shaped per_item (broadcast to every scenario) or (count,) + per_item.

    Returns the leading count a carries, or None when it is shaped per_item."""
    per_item = tuple(per_item)
    if a.shape == per_item:
        return None
    if a.ndim == len(per_item) + 1 and a.shape[1:] == per_item and (count is None or a.shape[0] == count):
        return a.shape[0]
    want = f"{per_item} or (batch,) + {per_item}" if count is None else f"{per_item} or {(count,) + per_item}"
    raise ValueError(f"{name}: shape {a.shape} does not fit, expected {want}")
