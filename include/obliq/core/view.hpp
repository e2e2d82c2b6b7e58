// obliq/core/view.hpp: small strided views of memory and the scratch arena.
//
// The core never owns memory. A view is a pointer plus sizes plus strides (in elements), so
// one function reads scenario-contiguous CPU buffers (stride 1) and scenario-interleaved GPU
// buffers (stride = batch size) alike. A vector view with inc = 0 broadcasts one value
// (a global restitution coefficient for every row).
#pragma once

#include <cstddef>

#include "obliq/core/config.hpp"

namespace obliq {

template <class T> struct VecView {
  T* data = nullptr;
  int size = 0;
  std::ptrdiff_t inc = 1;  // distance between consecutive entries (0 = broadcast)

  OBLIQ_HD T& operator[](int i) const { return data[i * inc]; }
  OBLIQ_HD T& operator()(int i) const { return data[i * inc]; }
  OBLIQ_HD VecView<const T> as_const() const { return {data, size, inc}; }
  OBLIQ_HD VecView head(int k) const { return {data, k, inc}; }
  OBLIQ_HD VecView segment(int start, int k) const { return {data + start * inc, k, inc}; }
};

template <class T> struct MatView {
  T* data = nullptr;
  int rows = 0, cols = 0;
  std::ptrdiff_t rs = 0, cs = 1;  // row stride, column stride (row-major contiguous: rs = cols, cs = 1)

  OBLIQ_HD T& operator()(int i, int j) const { return data[i * rs + j * cs]; }
  OBLIQ_HD VecView<T> row(int i) const { return {data + i * rs, cols, cs}; }
  OBLIQ_HD VecView<T> col(int j) const { return {data + j * cs, rows, rs}; }
  OBLIQ_HD MatView<const T> as_const() const { return {data, rows, cols, rs, cs}; }
  OBLIQ_HD MatView transpose() const { return {data, cols, rows, cs, rs}; }
  OBLIQ_HD MatView block(int i, int j, int r, int c) const { return {data + i * rs + j * cs, r, c, rs, cs}; }
  OBLIQ_HD MatView top_rows(int r) const { return block(0, 0, r, cols); }
  OBLIQ_HD MatView left_cols(int c) const { return block(0, 0, rows, c); }
};

// Row-major contiguous views over plain arrays.
template <class T> OBLIQ_HD MatView<T> mat_view(T* p, int rows, int cols) { return {p, rows, cols, cols, 1}; }
template <class T> OBLIQ_HD VecView<T> vec_view(T* p, int size) { return {p, size, 1}; }

// Scratch arena: hands out views from one caller-owned buffer. `stride` is the distance
// between consecutive scratch elements (1 on the CPU; the batch size for interleaved GPU
// scratch, so that neighbouring threads touch neighbouring addresses).
template <class T> struct Arena {
  T* base = nullptr;
  std::size_t capacity = 0;  // in elements (not counting the stride)
  std::ptrdiff_t stride = 1;
  std::size_t used = 0;
  std::size_t peak = 0;  // high-water mark of `used`
  bool overflow = false;

  OBLIQ_HD T* take(std::size_t count) {
    if (used + count > capacity) {
      overflow = true;
      return nullptr;
    }
    T* p = base + used * stride;
    used += count;
    peak = used > peak ? used : peak;
    return p;
  }
  OBLIQ_HD MatView<T> mat(int rows, int cols) {
    T* p = take(std::size_t(rows) * std::size_t(cols));
    return {p, rows, cols, std::ptrdiff_t(cols) * stride, stride};
  }
  OBLIQ_HD VecView<T> vec(int size) { return {take(std::size_t(size)), size, stride}; }
  // Mark/release: scratch taken after `mark()` is returned by `release(mark)`.
  OBLIQ_HD std::size_t mark() const { return used; }
  OBLIQ_HD void release(std::size_t m) { used = m; }
};

// Integer scratch (pivots, index sets) comes from the same arena, reinterpreted: an int fits
// in one slot of any scalar type used here (float or double).
template <class T> struct IndexView {
  T* slots = nullptr;
  int size = 0;
  std::ptrdiff_t inc = 1;
  OBLIQ_HD int get(int i) const { return static_cast<int>(slots[i * inc]); }
  OBLIQ_HD void set(int i, int v) const { slots[i * inc] = static_cast<T>(v); }
  OBLIQ_HD int operator[](int i) const { return get(i); }
};

// Whether a list of indices (a pointer, or an IndexView in arena scratch) is missing.
OBLIQ_HD inline bool index_list_missing(const int* list) { return list == nullptr; }
template <class T> OBLIQ_HD bool index_list_missing(const IndexView<T>& list) { return list.slots == nullptr; }

}  // namespace obliq
