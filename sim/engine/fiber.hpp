// tilesim/sim/engine/fiber.hpp: stackful fibers, one per simulated GPU thread, on Boost.Context.
//
// DEFINITION. A fiber_set owns `count` fibers, each an execution context with its own stack, and one scheduler (the
// thread that calls resume). start(i, f, arg) prepares fiber i to run f(arg, i); resume(i) runs it until it
// calls suspend() or f returns; then resume returns. Only the scheduler resumes, only a fiber suspends, so
// control always goes scheduler -> fiber -> scheduler; there is no fiber-to-fiber switch.
//
// WHY BOOST.CONTEXT. The engine must stop a thread in the middle of a program (at a barrier) and continue it
// later, with the program's locals (tile windows, register tiles) intact: that needs a stack per thread.
// Switching is Boost.Context's fcontext (make_fcontext / jump_fcontext, Debian's libboost-context-dev): a few
// dozen instructions in user space that save the callee-saved registers, where POSIX swapcontext also made an
// rt_sigprocmask system call per switch (~0.2 us; a 256-thread GEMM workgroup switches tens of thousands of
// times). The stacks are still ours (one mapping, a guard page below each), and AddressSanitizer is told about
// every switch (__sanitizer_start_switch_fiber / finish_switch_fiber, under __has_feature(address_sanitizer) /
// __SANITIZE_ADDRESS__), as it was with ucontext. One fiber_set belongs to one OS thread (the engine keeps one
// per worker thread); sets on different threads are independent.
//
// WORKED EXAMPLE. Two fibers that each suspend once:
//   fiber_set fs(2, 64 * 1024);
//   fs.start(0, f, &log); fs.start(1, f, &log);   // f: log += "a"; suspend(); log += "b"
//   fs.resume(0); fs.resume(1);                    // log == "aa"
//   fs.resume(0); fs.resume(1);                    // log == "aabb", both finished()
//
// INVARIANTS. Each stack is stack_bytes (rounded up to pages) with an inaccessible guard page below it, so
// a stack overflow stops the process at the guard (SIGSEGV) instead of silently corrupting another
// fiber's stack. f must not let an exception escape (the engine catches everything at the fiber's base:
// unwinding cannot cross the context's entry frame). A fiber must not suspend inside a catch block (the C++
// runtime keeps one caught-exception stack per OS thread, shared by all fibers).
#pragma once

#include <cstddef>
#include <memory>

namespace tilesim::sim {

class fiber_set {
 public:
  using entry_function = void (*)(void* arg, int index);

  // `count` fibers with `stack_bytes` each; throws std::invalid_argument for count < 1 or a stack under 16 KiB,
  // std::runtime_error (naming the size) when the stacks cannot be mapped.
  fiber_set(int count, std::size_t stack_bytes);
  ~fiber_set();
  fiber_set(const fiber_set&) = delete;
  fiber_set& operator=(const fiber_set&) = delete;

  int count() const;
  std::size_t stack_bytes() const;

  // Prepares fiber i to run f(arg, i) from the top of its stack; i must not be running. With `measure`,
  // the stack is painted first so stack_used(i) can tell the high-water mark (costs a memset of the stack).
  void start(int i, entry_function f, void* arg, bool measure = false);
  // Runs fiber i (started, not finished) until it suspends or returns. Called only by the scheduler.
  void resume(int i);
  // From inside the running fiber: back to the scheduler; returns when the scheduler resumes this fiber.
  void suspend();
  bool finished(int i) const;
  // The fiber now running, or -1 in the scheduler.
  int current() const;
  // Bytes of fiber i's stack ever written since a measured start (0 when not measured): 64 KiB stacks, ~9 KiB used.
  std::size_t stack_used(int i) const;

 private:
  struct state;
  std::unique_ptr<state> s_;
  struct trampoline;  // the function every fiber starts in (fiber.cpp)
};

}  // namespace tilesim::sim
