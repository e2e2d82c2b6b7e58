// tests/cli/mutate.hpp: random edits of a JSON line (1 to 3 characters erased, inserted from
// `alphabet` or replaced), for the readers' robustness and agreement tests.
#pragma once

#include <random>
#include <string>

namespace obliq::cli_test {

inline std::string mutate_line(std::string line, std::mt19937_64& rng, const std::string& alphabet) {
  const int edits = 1 + int(rng() % 3);
  for (int k = 0; k < edits && !line.empty(); ++k) {
    const std::size_t at = rng() % line.size();
    const char c = alphabet[rng() % alphabet.size()];
    switch (rng() % 3) {
      case 0: line.erase(at, 1); break;
      case 1: line.insert(line.begin() + long(at), c); break;
      default: line[at] = c;
    }
  }
  return line;
}

}  // namespace obliq::cli_test
