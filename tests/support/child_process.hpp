// tests/support/child_process.hpp: `obliq ARGS` as a child process with pipes to its standard
// input and from its standard output (standard error into a file), for the streaming, signal
// and closed-pipe tests. Waits are causal (the next input is written only after the expected
// output arrived) with a generous deadline that only a hang reaches; nothing is timed.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

namespace obliq::test_support {

class Child {
 public:
  // argv[0] is the program; stderr goes to `err_path`.
  Child(const std::vector<std::string>& argv, const std::string& err_path) {
    int in[2], out[2];
    if (::pipe(in) != 0 || ::pipe(out) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(in[0], 0);
      ::dup2(out[1], 1);
      const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (err >= 0) ::dup2(err, 2);
      ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
      std::vector<char*> args;
      for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      ::execv(args[0], args.data());
      ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    to_child_ = in[1];
    from_child_ = out[0];
    ::signal(SIGPIPE, SIG_IGN);  // the test writes to a child that may have exited
  }
  ~Child() {
    close_input();
    if (from_child_ >= 0) ::close(from_child_);
    if (pid_ > 0 && !reaped_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  bool started() const { return pid_ > 0; }

  bool write(const std::string& text) { return ::write(to_child_, text.data(), text.size()) == ssize_t(text.size()); }
  void close_input() {
    if (to_child_ >= 0) ::close(to_child_);
    to_child_ = -1;
  }
  void signal(int sig) { ::kill(pid_, sig); }

  // Reads until `lines` complete lines have arrived in total, the output ends, or 30 s pass.
  // Returns everything read so far.
  const std::string& read_lines(std::size_t lines) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (count_lines() < lines && !eof_) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) break;
      pollfd p{from_child_, POLLIN, 0};
      if (::poll(&p, 1, int(left.count())) <= 0) continue;
      char buf[65536];
      const ssize_t k = ::read(from_child_, buf, sizeof buf);
      if (k <= 0) eof_ = true;
      else out_.append(buf, std::size_t(k));
    }
    return out_;
  }
  const std::string& read_all() { return read_lines(std::size_t(-1)); }

  // Waits (at most 30 s) for the exit. Returns the exit code, 128 + signal if killed by one
  // (killed_by_signal() then tells it from an exit with that code), or -1 on a hang (the child
  // is then killed).
  int wait() {
    for (int k = 0; k < 3000; ++k) {
      int st = 0;
      if (::waitpid(pid_, &st, WNOHANG) == pid_) {
        reaped_ = true;
        killed_ = WIFSIGNALED(st);
        return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
      }
      ::usleep(10000);
    }
    return -1;
  }
  bool killed_by_signal() const { return killed_; }

 private:
  std::size_t count_lines() const {
    std::size_t n = 0;
    for (char c : out_) n += c == '\n';
    return n;
  }
  pid_t pid_ = -1;
  int to_child_ = -1, from_child_ = -1;
  bool eof_ = false, reaped_ = false, killed_ = false;
  std::string out_;
};

}  // namespace obliq::test_support
