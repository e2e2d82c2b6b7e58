// io/limits.hpp: every bound the readers and commands enforce (docs/limits.md lists them with
// the error each one gives). Past a bound a line gets its own "error: ..." and the other lines
// are solved; a command-line value past a bound is misuse (exit 2).
#pragma once

#include <cstddef>

namespace obliq::io {

// One physical input line (bytes, without the newline). A longer line is read to its end and
// skipped: "error: line too long (more than 134217728 bytes)".
inline constexpr std::size_t kMaxLineBytes = std::size_t(128) << 20;

// Nesting depth of one JSON line (each [ or { opens a level; a scenario line needs 3). Checked
// by a scan of the text before the JSON parser sees it: "error: too deeply nested (...)".
inline constexpr int kMaxJsonDepth = 64;

// Problem sizes per line. impact/dynamics: n (from M) and m_b + m_u (rows of A_b and A_u);
// lcp: m (from M, JSON Lines and Siconos files alike). Past them: "error: too large (...)".
// Dense per-line work is O(n^3 + m^3) and the per-thread scratch O((n + m)^2) doubles.
inline constexpr int kMaxDofs = 1024;
inline constexpr int kMaxRows = 1024;
inline constexpr int kMaxLcpSize = 1024;

// Threads of the cpu backends (--threads; the library clamps RunOptions::threads to it too).
inline constexpr int kMaxThreads = 256;

// Input held at once by a streaming command before it solves and writes: a chunk ends at this
// many lines or bytes, at the end of input, or when the input has been idle for kIdleFlushMs.
inline constexpr std::size_t kChunkLines = std::size_t(1) << 15;
inline constexpr std::size_t kChunkBytes = std::size_t(64) << 20;
inline constexpr int kIdleFlushMs = 100;

// A study file of obliq sweep (one JSON object, read whole; its nesting depth is bounded by
// kMaxJsonDepth too: a study with a raw scenario nests 5 levels).
inline constexpr std::size_t kMaxStudyBytes = std::size_t(64) << 20;

// URDF files (obliq model): file size, <link> elements, XML nesting depth. The kinematic tree's
// depth is bounded by the link count; it is walked without recursion.
inline constexpr std::size_t kMaxUrdfBytes = std::size_t(64) << 20;
inline constexpr int kMaxUrdfLinks = 1024;
inline constexpr int kMaxXmlDepth = 32;

}  // namespace obliq::io
