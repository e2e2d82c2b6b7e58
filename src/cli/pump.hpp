// src/cli/pump.hpp: the read-solve-write loop every JSON Lines command shares (impact, dynamics,
// model, lcp). Lines are held in a LineBatch until one of: io::kChunkLines lines or
// io::kChunkBytes bytes are held, the input has been idle for io::kIdleFlushMs since the first
// held line arrived (a slow producer gets its answers), the input ends, or SIGINT/SIGTERM
// arrives; then the batch is solved and its output lines are written at once, in input order.
#pragma once

#include <string>

#include "cli/streams.hpp"

namespace obliq::cli {

class LineBatch {
 public:
  virtual ~LineBatch() = default;
  // A physical line and its 1-based number (blank lines too: the batch skips them).
  virtual void add(const std::string& line, long number) = 0;
  // A line that could not be read (too long): an error line with the line number as id.
  virtual void add_error(long number, const std::string& reason) = 0;
  virtual std::size_t size() const = 0;
  // Solves the held lines, appends their output lines to `text` in input order and forgets
  // them. Returns whether any of them is an error line.
  virtual bool flush(std::string& text) = 0;

 protected:
  // For a batch whose output is long (obliq simulate: many records per line): writes `text`
  // (whole lines) at once and clears it, so that it is not held. False after a failed write
  // (the message is printed; pump then stops with exit 2). Outside pump it keeps the text.
  bool write_now(std::string& text);

 private:
  friend int pump(InputLines& in, OutputLines& out, LineBatch& batch, const char* who);
  OutputLines* out_ = nullptr;
  bool write_failed_ = false;
};

// The reason of a line longer than io::kMaxLineBytes.
std::string too_long_reason();

// Returns the exit code: 0 all ok, 3 some error line, 2 when reading or writing failed (with a
// message), 128 + signal after SIGINT/SIGTERM, also one that arrives during the last solve (the
// lines read before it are written; obliq simulate stops its trajectories at a whole record).
int pump(InputLines& in, OutputLines& out, LineBatch& batch, const char* who);

}  // namespace obliq::cli
