"""The array namespace of an environment: `numpy` itself for arrays="numpy", or TorchNamespace for
arrays="torch", which gives the few numpy functions the environments call (same names, same
signatures, same dtype rules) on torch tensors of one device. Task code written as `xp.exp(...)`,
`xp.sum(x, axis=1)` runs unchanged on either kind; the numpy path is numpy's own functions.

Results agree bitwise with numpy's where the operation is elementwise IEEE arithmetic (+, -, *, /,
comparisons, casts) and for sum/mean over a row, which TorchNamespace adds in numpy's (pairwise)
order. exp and hypot are the libraries' own: torch's exp matched numpy's bit for bit on 3e6 float64
arguments on the machine measured (2026-12-07); torch's hypot differs from numpy's in the last bit
for about 0.6% of arguments."""
import numpy as np

_DTYPES = None


def _torch_dtype(torch, dtype):
    global _DTYPES
    if _DTYPES is None:
        _DTYPES = {np.dtype(d): getattr(torch, n) for d, n in ((np.float64, "float64"), (np.float32, "float32"),
                                                               (np.int64, "int64"), (np.int32, "int32"),
                                                               (np.uint8, "uint8"), (np.bool_, "bool"))}
    if isinstance(dtype, torch.dtype):
        return dtype
    return _DTYPES[np.dtype(dtype)]


def _pairwise(cols):
    """numpy's pairwise sum (numpy/_core/src/umath/loops_utils.h.src) of the columns, elementwise."""
    n = len(cols)
    if n < 8:
        res = cols[0] + 0.0  # numpy starts from 0.
        for c in cols[1:]:
            res = res + c
        return res
    if n <= 128:  # PW_BLOCKSIZE
        r = list(cols[:8])
        i = 8
        while i < n - n % 8:
            r = [r[j] + cols[i + j] for j in range(8)]
            i += 8
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for c in cols[i:]:
            res = res + c
        return res
    half = n // 2
    half -= half % 8
    return _pairwise(cols[:half]) + _pairwise(cols[half:])


class TorchNamespace:
    """numpy's functions as the environments call them, on torch tensors on `device`."""

    def __init__(self, device):
        import torch
        self.torch, self.device = torch, torch.device(device)
        self.bool_ = torch.bool

    def asarray(self, x, dtype=None):
        """A tensor on the device: a tensor as it is (moved, cast when asked) or numpy/host data
        (copied to the device once)."""
        dt = None if dtype is None else _torch_dtype(self.torch, dtype)
        return self.torch.as_tensor(x, dtype=dt, device=self.device)

    def zeros(self, shape, dtype=float):
        return self.torch.zeros(shape, dtype=_torch_dtype(self.torch, dtype), device=self.device)

    def ones(self, shape, dtype=float):
        return self.torch.ones(shape, dtype=_torch_dtype(self.torch, dtype), device=self.device)

    def empty(self, shape, dtype=float):
        return self.torch.empty(shape, dtype=_torch_dtype(self.torch, dtype), device=self.device)

    def exp(self, x):
        return self.torch.exp(x)

    def abs(self, x):
        return self.torch.abs(x)

    def hypot(self, x, y):
        return self.torch.hypot(x, y)

    def clip(self, x, lo, hi):
        return self.torch.clamp(x, lo, hi)

    def maximum(self, x, y):
        """x a tensor, y a tensor or a number (numpy's NaN propagation: clamp keeps NaN)."""
        if isinstance(y, self.torch.Tensor):
            return self.torch.maximum(x, y)
        return self.torch.clamp_min(x, y)

    def where(self, cond, x, y):
        return self.torch.where(cond, x, y)

    def stack(self, arrays, axis=0):
        return self.torch.stack(list(arrays), dim=axis)

    def copy(self, x):
        return x.clone()

    def count_nonzero(self, x):
        return self.torch.count_nonzero(x)

    def sum(self, x, axis):
        """Sum over the last axis of a 2-D tensor, in numpy's order (bitwise numpy's np.sum(x, axis=1))."""
        if x.ndim != 2 or axis not in (1, -1):
            raise ValueError("TorchNamespace.sum: over axis 1 of a 2-D tensor only")
        if x.dtype == self.torch.bool:
            x = x.to(self.torch.int64)
        return _pairwise(x.unbind(1))

    def mean(self, x, axis):
        return self.sum(x, axis) / x.shape[1]


def namespace(sim):
    """numpy, or a TorchNamespace on the device of sim's tensors."""
    if getattr(sim, "arrays", "numpy") == "numpy":
        return np
    return TorchNamespace(sim.q.device)
