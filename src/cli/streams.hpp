// src/cli/streams.hpp: the input file (or standard input for "-") and the output file (or
// standard output for "" and "-") of a subcommand, with the misuse messages of docs/format.md's exit 2.
#pragma once

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

namespace obliq::cli {

// Returns the stream to read, or nullptr after "<who>: cannot read '<path>': <reason>".
inline std::istream* open_input(const std::string& path, std::ifstream& file, const char* who) {
  if (path == "-") return &std::cin;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    std::cerr << who << ": cannot read '" << path << "': is a directory\n";
    return nullptr;
  }
  file.open(path, std::ios::binary);
  if (!file) {
    std::cerr << who << ": cannot read '" << path << "': " << std::strerror(errno) << "\n";
    return nullptr;
  }
  return &file;
}

// Returns the stream to write, or nullptr after "<who>: cannot write '<path>': <reason>".
inline std::ostream* open_output(const std::string& path, std::ofstream& file, const char* who) {
  if (path.empty() || path == "-") return &std::cout;
  file.open(path, std::ios::binary | std::ios::trunc);
  if (!file) {
    std::cerr << who << ": cannot write '" << path << "': " << std::strerror(errno) << "\n";
    return nullptr;
  }
  return &file;
}

}  // namespace obliq::cli
