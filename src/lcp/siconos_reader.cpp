// lcp/siconos_reader.cpp: Siconos's LCP test-data format (tests/data/siconos-lcp/README.md).
//
// (NaN or Inf entries are read as such; the solvers report them as Status::non_finite.)
// A stream of whitespace-separated tokens, read as Siconos's own reader does
// (linearComplementarity_newFromFile -> NM_new_from_file / SBM_new_from_file, all fscanf):
//   n, storageType (0 dense, 1 sparse block), size0, size1, then the matrix, then q (size1
//   numbers); anything after q (free-text comments in six files) is never read.
//   Dense: size0 size1 again, then size0*size1 numbers, COLUMN-major: the k-th number is
//   M[k mod size0][k div size0] (each text line of the block is a column of M).
//   Sparse block: nbblocks, blocknumber0, blocknumber1, blocksize0[blocknumber0] (cumulative
//   row ends), blocksize1[blocknumber1] (cumulative column ends), filled1, filled2,
//   index1_data[filled1] (block-row pointers, CSR-like), index2_data[filled2] (block columns),
//   then per block: its number and rows*cols values, column-major within the block.
#include <cstdlib>
#include <fstream>
#include <istream>
#include <stdexcept>
#include <string>

#include "io/limits.hpp"
#include "obliq/lcp.hpp"

namespace obliq {
namespace {

struct Tokens {
  std::istream& in;
  std::string what;  // for messages: the item being read

  std::string next(const std::string& item) {
    std::string t;
    if (!(in >> t)) throw std::runtime_error("Siconos LCP file: unexpected end of file while reading " + item);
    return t;
  }
  long integer(const std::string& item) {
    const std::string t = next(item);
    char* end = nullptr;
    const long v = std::strtol(t.c_str(), &end, 10);
    if (end == t.c_str() || *end != '\0')
      throw std::runtime_error("Siconos LCP file: " + item + ": expected an integer, got \"" + t + "\"");
    return v;
  }
  double number(const std::string& item) {
    const std::string t = next(item);
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (end == t.c_str() || *end != '\0')
      throw std::runtime_error("Siconos LCP file: " + item + ": expected a number, got \"" + t + "\"");
    return v;
  }
};

constexpr long max_size = io::kMaxLcpSize;  // io/limits.hpp

void check_size(long v, const std::string& item) {
  if (v < 0) throw std::runtime_error("Siconos LCP file: " + item + " = " + std::to_string(v) + " is negative");
  if (v > max_size)
    throw std::runtime_error("Siconos LCP file: too large (" + item + " = " + std::to_string(v) + "; at most " +
                             std::to_string(max_size) + ")");
}

}  // namespace

LcpProblem read_siconos_lcp(std::istream& in) {
  Tokens tk{in, {}};
  const long n = tk.integer("n (problem size)");
  check_size(n, "n");
  const long storage = tk.integer("storageType");
  const long size0 = tk.integer("size0"), size1 = tk.integer("size1");
  check_size(size0, "size0");
  check_size(size1, "size1");
  if (size0 != n || size1 != n)
    throw std::runtime_error("Siconos LCP file: M is " + std::to_string(size0) + " x " + std::to_string(size1) +
                             ", expected " + std::to_string(n) + " x " + std::to_string(n));
  LcpProblem p;
  p.m = int(n);
  p.M.assign(std::size_t(n * n), 0.0);
  if (storage == 0) {
    const long r = tk.integer("dense size0 (repeated)"), c = tk.integer("dense size1 (repeated)");
    if (r != size0 || c != size1)
      throw std::runtime_error("Siconos LCP file: dense block header " + std::to_string(r) + " " +
                               std::to_string(c) + " disagrees with " + std::to_string(size0) + " " +
                               std::to_string(size1));
    for (long k = 0; k < size0 * size1; ++k) {
      const long i = k % size0, j = k / size0;  // column-major
      p.M[std::size_t(i * n + j)] = tk.number("M[" + std::to_string(i) + "][" + std::to_string(j) + "]");
    }
  } else if (storage == 1) {
    const long nbblocks = tk.integer("nbblocks");
    const long bn0 = tk.integer("blocknumber0"), bn1 = tk.integer("blocknumber1");
    check_size(nbblocks, "nbblocks");
    check_size(bn0, "blocknumber0");
    check_size(bn1, "blocknumber1");
    if (nbblocks == 0) throw std::runtime_error("Siconos LCP file: sparse-block matrix with no blocks");
    std::vector<long> rows_end(static_cast<std::size_t>(bn0)), cols_end(static_cast<std::size_t>(bn1));
    for (auto& v : rows_end) v = tk.integer("blocksize0");
    for (auto& v : cols_end) v = tk.integer("blocksize1");
    const auto check_ends = [&](const std::vector<long>& ends, long total, const char* name) {
      long prev = 0;
      for (long e : ends) {
        if (e <= prev || e > total) throw std::runtime_error(std::string("Siconos LCP file: bad ") + name);
        prev = e;
      }
      if (prev != total) throw std::runtime_error(std::string("Siconos LCP file: ") + name + " does not cover M");
    };
    check_ends(rows_end, size0, "blocksize0");
    check_ends(cols_end, size1, "blocksize1");
    const long filled1 = tk.integer("filled1"), filled2 = tk.integer("filled2");
    if (filled1 != bn0 + 1 || filled2 != nbblocks)
      throw std::runtime_error("Siconos LCP file: filled1/filled2 disagree with the block counts");
    std::vector<long> index1(static_cast<std::size_t>(filled1)), index2(static_cast<std::size_t>(filled2));
    for (auto& v : index1) v = tk.integer("index1_data");
    for (auto& v : index2) v = tk.integer("index2_data");
    if (index1.front() != 0 || index1.back() != nbblocks)
      throw std::runtime_error("Siconos LCP file: index1_data does not span the blocks");
    // Nondecreasing as a whole before any is used, so every block index lies in [0, nbblocks)
    // (checking each row as it came read index2_data past its end: a fuzz/siconos_reader.cpp finding).
    for (std::size_t k = 1; k < index1.size(); ++k)
      if (index1[k] < index1[k - 1]) throw std::runtime_error("Siconos LCP file: index1_data not increasing");
    long block = 0;
    for (long br = 0; br < bn0; ++br) {
      for (long b = index1[std::size_t(br)]; b < index1[std::size_t(br + 1)]; ++b, ++block) {
        const long bc = index2[std::size_t(b)];
        if (bc < 0 || bc >= bn1) throw std::runtime_error("Siconos LCP file: index2_data out of range");
        const long r0 = br == 0 ? 0 : rows_end[std::size_t(br - 1)], r1 = rows_end[std::size_t(br)];
        const long c0 = bc == 0 ? 0 : cols_end[std::size_t(bc - 1)], c1 = cols_end[std::size_t(bc)];
        (void)tk.integer("block number");  // Siconos only warns when it differs from the running index
        for (long c = c0; c < c1; ++c)      // column-major within the block
          for (long r = r0; r < r1; ++r)
            p.M[std::size_t(r * n + c)] = tk.number("block " + std::to_string(b) + " entry");
      }
    }
  } else {
    throw std::runtime_error("Siconos LCP file: storageType " + std::to_string(storage) +
                             " not supported (0 dense and 1 sparse block are)");
  }
  p.q.resize(std::size_t(size1));
  for (long i = 0; i < size1; ++i) p.q[std::size_t(i)] = tk.number("q[" + std::to_string(i) + "]");
  return p;
}

LcpProblem read_siconos_lcp_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot open " + path);
  return read_siconos_lcp(f);
}

}  // namespace obliq
