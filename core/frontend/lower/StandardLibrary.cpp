//===- StandardLibrary.cpp - triton.language.standard as jit code ---------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// The functions of triton.language.standard that Triton itself writes as jit
// code on top of its builtins, written the same way here (after Triton
// 3.6's python/triton/language/standard.py, MIT licence) so that a kernel
// gets the same results: tl.sort, tl.topk and tl.bitonic_merge (a bitonic
// network on the tile reshaped to a 2x2x...x2 hypercube, whose partner
// exchanges are xor reductions over one axis), tl.flip, tl.xor_sum,
// tl.reduce_or, tl.swizzle2d and tl.softmax. The front end parses it on
// first use; names starting with '_' are its own helpers.
//
//===----------------------------------------------------------------------===//

#include "core/frontend/lower/Builtins.h"

const char *tle::frontend::getStandardLibrarySource() {
  return R"py(import triton
import triton.language as tl


@triton.jit
def _xor_combine(a, b):
    return a ^ b


@triton.jit
def xor_sum(input, axis=None, keep_dims=False):
    tl.static_assert(input.dtype.is_int(),
                     "xor_sum only supported for integers")
    return tl.reduce(input, axis, _xor_combine, keep_dims=keep_dims)


@triton.jit
def _or_combine(x, y):
    return x | y


@triton.jit
def reduce_or(input, axis, keep_dims=False):
    tl.static_assert(input.dtype.is_int(),
                     "reduce_or only supported for integers")
    return tl.reduce(input, axis, _or_combine, keep_dims=keep_dims)


@triton.jit
def swizzle2d(i, j, size_i, size_j, size_g):
    # The row-major index of (i, j); groups of size_g rows are numbered
    # column-major, the last group possibly shorter.
    ij = i * size_j + j
    size_gj = size_g * size_j
    group_id = ij // size_gj
    off_i = group_id * size_g
    size_g = tl.minimum(size_i - off_i, size_g)
    ij = ij % size_gj
    new_i = off_i + ij % size_g
    new_j = ij // size_g
    return new_i, new_j


@triton.jit
def softmax(x, dim=None, keep_dims=False, ieee_rounding=False):
    if dim is None:
        _dim: tl.constexpr = 0
    else:
        _dim: tl.constexpr = dim
    z = x - tl.max(x, _dim, keep_dims=keep_dims)
    num = tl.exp(z)
    den = tl.sum(num, _dim, keep_dims=keep_dims)
    return tl.math.fdiv(num, den, ieee_rounding)


@triton.jit
def _indicator(n_dims: tl.constexpr, j: tl.constexpr):
    # 0 and 1 along axis n_dims - 1 - j of the hypercube (the j-th
    # innermost), size 1 along the others.
    ar = tl.arange(0, 2)
    ar = tl.reshape(ar, [1] * (n_dims - j - 1) + [2] + [1] * j)
    return ar


@triton.jit
def _compare_and_swap(x, flip, i: tl.constexpr):
    # Compare-and-swap along the i-th innermost axis: each element's partner
    # is the other element of its pair, a ^ (a ^ b) (the xors cancel out).
    n_dims: tl.constexpr = tl._log2(x.numel)
    idtype = tl.get_int_dtype(bitwidth=x.dtype.primitive_bitwidth,
                              signed=True)
    ix = x.to(idtype, bitcast=True)
    iy = ix ^ xor_sum(ix, n_dims - 1 - i, True)
    y = iy.to(x.dtype, bitcast=True)
    is_right = _indicator(n_dims, i)
    return tl.where((x > y) != (flip ^ is_right).to(tl.int1), y, x)


@triton.jit
def _bitonic_merge_hypercube(x, stage: tl.constexpr, order: tl.constexpr):
    # order 0: ascending, 1: descending, 2: alternating with a stride of
    # 2^stage elements.
    if order == 2:
        flip = _indicator(tl._log2(x.numel), stage)
    else:
        flip = order
    for i in tl.static_range(stage):
        x = _compare_and_swap(x, flip, stage - 1 - i)
    return x


@triton.jit
def _bitonic_merge(x, stage: tl.constexpr, order: tl.constexpr,
                   n_dims: tl.constexpr):
    h = tl.reshape(x, [2] * tl._log2(x.numel))
    h = _bitonic_merge_hypercube(h, stage, order)
    x = tl.reshape(h, x.shape)
    return x


@triton.jit
def _sort_impl(x, k: tl.constexpr = None, dim: tl.constexpr = None,
               descending: tl.constexpr = 0):
    _dim: tl.constexpr = len(x.shape) - 1 if dim is None else dim
    tl.static_assert(_dim == len(x.shape) - 1,
                     "only minor dimension is currently supported")
    log_n: tl.constexpr = tl._log2(x.shape[_dim])
    log_k: tl.constexpr = log_n if k is None else tl._log2(k)
    n_dims: tl.constexpr = tl._log2(x.numel)
    h = tl.reshape(x, [2] * n_dims if n_dims else [1])
    # The first log_k bitonic merge stages sort runs of k elements; then
    # each step keeps the better half of pairs of runs and merges it
    # (bitonic top-k, Shanbhag et al., "Efficient Top-K Query Processing on
    # Massively Parallel Hardware", SIGMOD'18).
    for i in tl.static_range(1, log_k + 1):
        h = _bitonic_merge_hypercube(h, i, 2 if i < log_n else descending)
    for i in tl.static_range(log_k + 1, log_n + 1):
        if descending:
            h = tl.max(h, axis=(tl._log2(h.numel) - 1 - log_k))
        else:
            h = tl.min(h, axis=(tl._log2(h.numel) - 1 - log_k))
        h = _bitonic_merge_hypercube(h, log_k, 2 if i < log_n else descending)
    x = tl.reshape(h, x.shape[:-1] + [2**log_k])
    return x


@triton.jit
def sort(x, dim: tl.constexpr = None, descending: tl.constexpr = 0):
    return _sort_impl(x, dim=dim, descending=descending)


@triton.jit
def topk(x, k: tl.constexpr, dim: tl.constexpr = None):
    return _sort_impl(x, k=k, dim=dim, descending=True)


@triton.jit
def bitonic_merge(x, dim: tl.constexpr = None, descending: tl.constexpr = 0):
    _dim: tl.constexpr = len(x.shape) - 1 if dim is None else dim
    tl.static_assert(_dim == len(x.shape) - 1,
                     "only minor dimension is currently supported")
    n_dims: tl.constexpr = tl._log2(x.shape[-1])
    return _bitonic_merge(x, n_dims, descending, n_dims)


@triton.jit
def flip(x, dim=None):
    tl.static_assert(dim is None or (-len(x.shape) <= dim and
                                     dim < len(x.shape)),
                     "flip: dim must be None or in [-rank, rank)")
    if dim is None:
        _dim: tl.constexpr = len(x.shape) - 1
    elif dim < 0:
        _dim: tl.constexpr = dim + len(x.shape)
    else:
        _dim: tl.constexpr = dim
    tl.static_assert(x.shape[_dim] & (x.shape[_dim] - 1) == 0,
                     "flip: the dimension's size must be a power of two")
    steps: tl.constexpr = tl._log2(x.shape[_dim])
    # The flipped dimension as 2x2x...x2: reversing it swaps the halves of
    # each axis, an exchange with the partner along that axis.
    idtype = tl.get_int_dtype(bitwidth=x.dtype.primitive_bitwidth,
                              signed=True)
    y = tl.reshape(x.to(idtype, bitcast=True),
                   x.shape[:_dim] + [2] * steps + x.shape[_dim + 1:])
    for i in tl.static_range(steps):
        y = y ^ xor_sum(y, _dim + i, True)
    x = tl.reshape(y, x.shape).to(x.dtype, bitcast=True)
    return x
)py";
}
