// src/cli/streams.cpp: line input and output on file descriptors (src/cli/streams.hpp).
#include "cli/streams.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "io/limits.hpp"

namespace obliq::cli {
namespace {

volatile std::sig_atomic_t g_received = 0;
std::atomic<bool> g_stop{false};  // lock-free, so safe to set in a signal handler
static_assert(std::atomic<bool>::is_always_lock_free);

// The self-pipe: the handler writes a byte, so that a reader waiting in poll() wakes up even when
// the signal came just after it last looked at the flag.
int g_wake[2] = {-1, -1};

extern "C" void on_stop_signal(int sig) {
  g_received = sig;
  g_stop.store(true);
  if (g_wake[1] >= 0) {
    const int saved = errno;
    [[maybe_unused]] const ssize_t k = ::write(g_wake[1], "s", 1);
    errno = saved;
  }
  std::signal(sig, SIG_DFL);  // a second signal ends the process at once
}

void install(int sig, void (*handler)(int)) {
  struct sigaction sa {};
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocked read returns EINTR and the reader sees the flag
  sigaction(sig, &sa, nullptr);
}

}  // namespace

StopSignals::StopSignals() {
  g_received = 0;
  g_stop.store(false);
  if (g_wake[0] < 0 && ::pipe2(g_wake, O_CLOEXEC | O_NONBLOCK) != 0) g_wake[0] = g_wake[1] = -1;
  install(SIGINT, on_stop_signal);
  install(SIGTERM, on_stop_signal);
  std::signal(SIGPIPE, SIG_IGN);
}
StopSignals::~StopSignals() {
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}
int StopSignals::received() { return int(g_received); }
const std::atomic<bool>* StopSignals::flag() { return &g_stop; }

bool InputLines::open(const std::string& path, const char* who) {
  path_ = path;
  if (path == "-") {
    fd_ = 0;
    return true;
  }
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) {
    std::cerr << who << ": cannot read '" << path << "': " << std::strerror(errno) << "\n";
    return false;
  }
  own_ = true;
  struct stat st {};
  if (::fstat(fd_, &st) == 0 && S_ISDIR(st.st_mode)) {
    std::cerr << who << ": cannot read '" << path << "': is a directory\n";
    return false;
  }
  return true;
}

InputLines::~InputLines() {
  if (own_) ::close(fd_);
}

void InputLines::unread(std::string line) {
  unread_ = std::move(line);
  have_unread_ = true;
  --number_;
}

// Reads more bytes into buf_. False with `why` set when none came (end, idle, stopped, error).
bool InputLines::fill(std::chrono::steady_clock::time_point deadline, Event& why) {
  if (eof_) {
    why = Event::end;
    return false;
  }
  if (StopSignals::received()) {
    why = Event::stopped;
    return false;
  }
  {  // wait for input, the idle deadline or a stop signal (the self-pipe: no lost wake-up)
    int timeout = -1;
    if (deadline != std::chrono::steady_clock::time_point::max()) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      timeout = int(left.count() > 0 ? left.count() : 0);
    }
    pollfd p[2] = {{fd_, POLLIN, 0}, {g_wake[0], POLLIN, 0}};  // a negative fd is ignored
    int r;
    do {  // another signal (not a stop) interrupts a wait without a deadline: wait on
      r = ::poll(p, 2, timeout);
    } while (r < 0 && errno == EINTR && timeout < 0 && !StopSignals::received());
    if (StopSignals::received()) {
      why = Event::stopped;
      return false;
    }
    if (r == 0 || (r < 0 && errno == EINTR)) {
      why = Event::idle;
      return false;
    }
  }
  if (pos_ > 0 && pos_ == buf_.size()) buf_.clear(), pos_ = 0;
  if (pos_ > (std::size_t(1) << 20) && pos_ * 2 > buf_.size()) buf_.erase(0, pos_), pos_ = 0;
  const std::size_t old = buf_.size(), chunk = std::size_t(1) << 16;
  buf_.resize(old + chunk);
  ssize_t got;
  do {
    got = ::read(fd_, buf_.data() + old, chunk);
  } while (got < 0 && errno == EINTR && !StopSignals::received());
  buf_.resize(old + std::size_t(got > 0 ? got : 0));
  if (got < 0) {
    if (errno == EINTR) {
      why = Event::stopped;
      return false;
    }
    error_ = "cannot read '" + path_ + "': " + std::strerror(errno);
    why = Event::error;
    return false;
  }
  if (got == 0) {
    eof_ = true;
    why = Event::end;
    return false;
  }
  return true;
}

InputLines::Event InputLines::next(std::string& line, std::chrono::steady_clock::time_point idle_deadline) {
  if (have_unread_) {
    have_unread_ = false;
    ++number_;
    line = std::move(unread_);
    return Event::line;
  }
  bool too_long = false;
  std::size_t scanned = 0;  // bytes of the current line (from pos_) already searched for '\n'
  for (;;) {
    const std::size_t nl = buf_.find('\n', pos_ + scanned);
    if (nl != std::string::npos) {
      ++number_;
      if (too_long || nl - pos_ > io::kMaxLineBytes) {
        pos_ = nl + 1;
        line.clear();
        return Event::too_long;
      }
      line.assign(buf_, pos_, nl - pos_);
      pos_ = nl + 1;
      return Event::line;
    }
    if (buf_.size() - pos_ > io::kMaxLineBytes) {  // drop what is held of the long line
      too_long = true;
      buf_.clear();
      pos_ = scanned = 0;
    } else {
      scanned = buf_.size() - pos_;
    }
    Event why = Event::end;
    // A line already started is waited for: idle only between lines.
    const bool between_lines = pos_ == buf_.size() && !too_long;
    if (!fill(between_lines ? idle_deadline : std::chrono::steady_clock::time_point::max(), why)) {
      if (why == Event::end && (pos_ < buf_.size() || too_long)) {  // a last line without '\n'
        ++number_;
        if (too_long || buf_.size() - pos_ > io::kMaxLineBytes) {
          buf_.clear(), pos_ = 0;
          line.clear();
          return Event::too_long;
        }
        line.assign(buf_, pos_, std::string::npos);
        buf_.clear(), pos_ = 0;
        return Event::line;
      }
      return why;
    }
  }
}

bool OutputLines::open(const std::string& path, const InputLines& input, const char* who) {
  who_ = who;
  path_ = path.empty() ? "-" : path;
  if (path.empty() || path == "-") {
    fd_ = 1;
    return true;
  }
  struct stat out_st {}, in_st {};
  if (::stat(path.c_str(), &out_st) == 0 && ::fstat(input.fd(), &in_st) == 0 && out_st.st_dev == in_st.st_dev &&
      out_st.st_ino == in_st.st_ino && S_ISREG(out_st.st_mode)) {
    std::cerr << who << ": cannot write '" << path << "': it is the input file (it would be truncated)\n";
    return false;
  }
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ < 0) {
    std::cerr << who << ": cannot write '" << path << "': " << std::strerror(errno) << "\n";
    return false;
  }
  own_ = true;
  return true;
}

OutputLines::~OutputLines() {
  if (own_) ::close(fd_);
}

bool OutputLines::write(const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t k = ::write(fd_, text.data() + done, text.size() - done);
    if (k < 0 && errno == EINTR) continue;  // a stop signal: the lines are still finished
    if (k <= 0) {
      std::cerr << who_ << ": cannot write '" << path_ << "': " << std::strerror(k < 0 ? errno : EIO) << "\n";
      return false;
    }
    done += std::size_t(k);
  }
  return true;
}

}  // namespace obliq::cli
