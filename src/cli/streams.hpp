// src/cli/streams.hpp: the input and output of a streaming subcommand (impact, dynamics, model,
// lcp, simulate), on file descriptors so that nothing is lost:
// - InputLines reads physical lines of at most io::kMaxLineBytes (a longer one is read to its
//   end and reported as too long), notices an idle input (a slow producer: the caller flushes),
//   and stops at SIGINT/SIGTERM;
// - OutputLines writes whole lines only and reports a failed write (closed pipe, full disk) at
//   once; it refuses an output that is the input file (same device and inode), before truncating;
// - StopSignals turns the first SIGINT/SIGTERM into a flag (a second one ends the process); it
//   also wakes a reader waiting for input (a self-pipe), and obliq sweep polls it between chunks.
// Misuse messages have docs/format.md's form "<who>: cannot read|write '<path>': <reason>" (exit 2).
#pragma once

#include <atomic>
#include <chrono>
#include <csignal>
#include <string>

namespace obliq::cli {

// SIGINT and SIGTERM while a command streams: the first sets the flag (the command finishes the
// lines it has read, writes them and exits 128 + signal: 130 or 143); SIGPIPE is ignored, so
// that a closed pipe is a write error with a message.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  static int received();  // 0, SIGINT or SIGTERM
  static int exit_code() { return 128 + received(); }
  // The same event as a flag for library loops that poll one (sweep::Options::stop).
  static const std::atomic<bool>* flag();
};

class InputLines {
 public:
  enum class Event { line, too_long, idle, end, stopped, error };

  // "-": standard input. Returns false after the misuse message.
  bool open(const std::string& path, const char* who);
  ~InputLines();

  // The next physical line (without '\n'), numbered from 1. `idle_deadline`: when no complete
  // line is buffered and no input arrives by then, returns idle (time_point::max(): wait).
  Event next(std::string& line, std::chrono::steady_clock::time_point idle_deadline);
  // Gives a line back: the next call returns it again (with the same number).
  void unread(std::string line);
  long line_number() const { return number_; }
  const std::string& error() const { return error_; }  // after Event::error
  int fd() const { return fd_; }

 private:
  bool fill(std::chrono::steady_clock::time_point deadline, Event& why);
  int fd_ = -1;
  bool own_ = false;
  bool eof_ = false;
  std::string buf_;       // bytes read, not yet returned
  std::size_t pos_ = 0;   // start of the unreturned bytes in buf_
  long number_ = 0;
  bool have_unread_ = false;
  std::string unread_;
  std::string path_, error_;
};

class OutputLines {
 public:
  // "" or "-": standard output. Refuses the input file itself. Returns false after the message.
  bool open(const std::string& path, const InputLines& input, const char* who);
  ~OutputLines();
  // Writes `text` (whole lines) now; false after "<who>: cannot write '<path>': <reason>".
  bool write(const std::string& text);

 private:
  int fd_ = -1;
  bool own_ = false;
  std::string path_, who_;
};

}  // namespace obliq::cli
