// obliq/core/lanes.hpp: a scalar that is W scenarios at once (SIMD lanes across scenarios,
// docs/design.md "Lanes across scenarios").
//
// Lanes<T, W> holds one T of each of W same-shape scenarios and behaves as a T in the per-state
// algorithms that are templated on their scalar: + - * / act lane by lane, so a lane goes through
// exactly the operations, in the same order, that the scalar code would do for its scenario (its
// result is the scalar result to the bit, as long as the compiler contracts neither, or both,
// into fused multiply-adds), while the machine does W of them per instruction. Branches cannot
// split lanes: a comparison gives a LaneMask that converts to bool as "every lane", so that a
// check written for one scenario (`if (!finite_(x)) return Status::non_finite;`) fails when any
// lane fails; the caller then redoes those W scenarios one by one with the scalar code, which
// gives each its own status. Code whose control flow depends on values (pivoting, active sets)
// must not be run on lanes; the model layer's per-state algorithms (include/obliq/model: forward
// kinematics, CRBA, RNEA, contact rows) have no such branches.
//
// Width: lane_width<T> fills a 256-bit register (4 doubles, 8 floats: AVX2), fixed at compile
// time; with narrower vector units the compiler splits each operation (2 x SSE2). Host only.
#pragma once

#include <cmath>
#include <cstddef>
#include <type_traits>

#include "obliq/core/config.hpp"

namespace obliq {

template <class T> inline constexpr int lane_width = int(32 / sizeof(T));

template <int W> struct LaneMask {
  bool b[W];
  // Every lane. There is deliberately no lane-wise `!`: `!(a <= b)` is "not every lane", the
  // negation a scalar check means when it rejects.
  explicit operator bool() const {
    for (int l = 0; l < W; ++l)
      if (!b[l]) return false;
    return true;
  }
};

template <class T, int W> struct alignas(sizeof(T) * W) Lanes {
#if defined(__GNUC__)
  typedef T vec __attribute__((vector_size(sizeof(T) * W)));
#else
  struct vec {
    T x[W];
    T& operator[](int l) { return x[l]; }
    const T& operator[](int l) const { return x[l]; }
  };
#endif
  vec v;

  Lanes() = default;
  // A number broadcast to every lane (model constants, literals such as T(0), T(2e-6)).
  template <class U, class = std::enable_if_t<std::is_arithmetic_v<U>>>
  Lanes(U x) {  // NOLINT: implicit, as a T converts from a literal
    for (int l = 0; l < W; ++l) v[l] = T(x);
  }
  T operator[](int l) const { return v[l]; }
  void set(int l, T x) { v[l] = x; }

#if defined(__GNUC__)
  friend Lanes operator+(Lanes a, Lanes b) { return from(a.v + b.v); }
  friend Lanes operator-(Lanes a, Lanes b) { return from(a.v - b.v); }
  friend Lanes operator*(Lanes a, Lanes b) { return from(a.v * b.v); }
  friend Lanes operator/(Lanes a, Lanes b) { return from(a.v / b.v); }
  friend Lanes operator-(Lanes a) { return from(-a.v); }
#else
  friend Lanes operator+(Lanes a, Lanes b) { return map2(a, b, [](T x, T y) { return x + y; }); }
  friend Lanes operator-(Lanes a, Lanes b) { return map2(a, b, [](T x, T y) { return x - y; }); }
  friend Lanes operator*(Lanes a, Lanes b) { return map2(a, b, [](T x, T y) { return x * y; }); }
  friend Lanes operator/(Lanes a, Lanes b) { return map2(a, b, [](T x, T y) { return x / y; }); }
  friend Lanes operator-(Lanes a) { return map1(a, [](T x) { return -x; }); }
#endif
  Lanes& operator+=(Lanes b) { return *this = *this + b; }
  Lanes& operator-=(Lanes b) { return *this = *this - b; }
  Lanes& operator*=(Lanes b) { return *this = *this * b; }
  Lanes& operator/=(Lanes b) { return *this = *this / b; }

  friend LaneMask<W> operator<(Lanes a, Lanes b) { return cmp(a, b, [](T x, T y) { return x < y; }); }
  friend LaneMask<W> operator<=(Lanes a, Lanes b) { return cmp(a, b, [](T x, T y) { return x <= y; }); }
  friend LaneMask<W> operator>(Lanes a, Lanes b) { return cmp(a, b, [](T x, T y) { return x > y; }); }
  friend LaneMask<W> operator>=(Lanes a, Lanes b) { return cmp(a, b, [](T x, T y) { return x >= y; }); }
  friend LaneMask<W> operator==(Lanes a, Lanes b) { return cmp(a, b, [](T x, T y) { return x == y; }); }
  friend LaneMask<W> operator!=(Lanes a, Lanes b) { return cmp(a, b, [](T x, T y) { return x != y; }); }

  // The math of the per-state algorithms, lane by lane through the function that the scalar
  // code's unqualified call finds (the global ::sin etc. of <cmath>: for a float that is the
  // double function, rounded to float, and so it is here), and config.hpp's abs_, max_, min_
  // (the same selection as the scalar versions). Hidden friends, found by argument-dependent
  // lookup only, so that they never hide ::sin for a scalar; as non-templates they win over
  // config.hpp's templates, whose ?: would read a LaneMask as "every lane".
  friend Lanes sqrt(Lanes a) { return map1(a, [](T x) { return T(::sqrt(x)); }); }
  friend Lanes sin(Lanes a) { return map1(a, [](T x) { return T(::sin(x)); }); }
  friend Lanes cos(Lanes a) { return map1(a, [](T x) { return T(::cos(x)); }); }
  friend Lanes fabs(Lanes a) { return map1(a, [](T x) { return T(::fabs(x)); }); }
  friend Lanes abs_(Lanes a) { return map1(a, [](T x) { return obliq::abs_(x); }); }
  friend Lanes max_(Lanes a, Lanes b) { return map2(a, b, [](T x, T y) { return obliq::max_(x, y); }); }
  friend Lanes min_(Lanes a, Lanes b) { return map2(a, b, [](T x, T y) { return obliq::min_(x, y); }); }

  // Lane by lane through the scalar function (the same correctly rounded sqrt, the same libm
  // sin and cos as the scalar code).
  template <class F> static Lanes map1(Lanes a, F f) {
    Lanes r;
    for (int l = 0; l < W; ++l) r.v[l] = f(a.v[l]);
    return r;
  }
  template <class F> static Lanes map2(Lanes a, Lanes b, F f) {
    Lanes r;
    for (int l = 0; l < W; ++l) r.v[l] = f(a.v[l], b.v[l]);
    return r;
  }

 private:
  static Lanes from(vec x) {
    Lanes r;
    r.v = x;
    return r;
  }
  template <class F> static LaneMask<W> cmp(Lanes a, Lanes b, F f) {
    LaneMask<W> m;
    for (int l = 0; l < W; ++l) m.b[l] = f(a.v[l], b.v[l]);
    return m;
  }
};

}  // namespace obliq
