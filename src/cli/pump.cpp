// src/cli/pump.cpp: the read-solve-write loop (src/cli/pump.hpp).
#include "cli/pump.hpp"

#include <chrono>
#include <iostream>

#include "io/limits.hpp"

namespace obliq::cli {

std::string too_long_reason() { return "line too long (more than " + std::to_string(io::kMaxLineBytes) + " bytes)"; }

bool LineBatch::write_now(std::string& text) {
  if (!out_) return true;
  if (write_failed_ || !out_->write(text)) {
    write_failed_ = true;
    return false;
  }
  text.clear();
  return true;
}

int pump(InputLines& in, OutputLines& out, LineBatch& batch, const char* who) {
  using clock = std::chrono::steady_clock;
  batch.out_ = &out;
  bool any_error = false;
  std::size_t held_bytes = 0;
  clock::time_point deadline = clock::time_point::max();  // set when the first line is held
  std::string text;
  const auto flush = [&]() {
    if (batch.size() == 0) return true;
    text.clear();
    any_error = batch.flush(text) || any_error;
    held_bytes = 0;
    deadline = clock::time_point::max();
    return !batch.write_failed_ && out.write(text);
  };
  const auto stopped = [&]() {
    if (!flush()) return 2;
    std::cerr << who << ": stopped by signal " << StopSignals::received() << " after line " << in.line_number()
              << "; the output written so far is whole lines\n";
    return StopSignals::exit_code();
  };
  std::string line;
  for (;;) {
    const InputLines::Event ev = in.next(line, deadline);
    switch (ev) {
      case InputLines::Event::line:
        batch.add(line, in.line_number());
        held_bytes += line.size();
        break;
      case InputLines::Event::too_long:
        batch.add_error(in.line_number(), too_long_reason());
        break;
      case InputLines::Event::idle:
        if (!flush()) return 2;
        continue;
      case InputLines::Event::end:
        if (!flush()) return 2;
        if (StopSignals::received()) return stopped();
        return any_error ? 3 : 0;
      case InputLines::Event::stopped:
        return stopped();
      case InputLines::Event::error:
        std::cerr << who << ": " << in.error() << "\n";
        flush();
        return 2;
    }
    if (batch.size() > 0 && deadline == clock::time_point::max())
      deadline = clock::now() + std::chrono::milliseconds(io::kIdleFlushMs);
    if (batch.size() >= io::kChunkLines || held_bytes >= io::kChunkBytes) {
      if (!flush()) return 2;
    }
    if (StopSignals::received()) return stopped();
  }
}

}  // namespace obliq::cli
