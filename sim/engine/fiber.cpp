// tilesim/sim/engine/fiber.cpp: Boost.Context fibers with guard pages and AddressSanitizer switch annotations.
#include "sim/engine/fiber.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <boost/context/detail/fcontext.hpp>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TILESIM_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(TILESIM_ASAN)
#define TILESIM_ASAN 1
#endif

#ifdef TILESIM_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace tilesim::sim {

namespace {

namespace fctx = boost::context::detail;

constexpr unsigned char paint_byte = 0xA5;

// What AddressSanitizer needs at each switch; all no-ops without it.
void start_switch([[maybe_unused]] void** fake_stack_save, [[maybe_unused]] const void* bottom,
                  [[maybe_unused]] std::size_t size) {
#ifdef TILESIM_ASAN
  __sanitizer_start_switch_fiber(fake_stack_save, bottom, size);
#endif
}
void finish_switch([[maybe_unused]] void* fake_stack_save, [[maybe_unused]] const void** old_bottom,
                   [[maybe_unused]] std::size_t* old_size) {
#ifdef TILESIM_ASAN
  __sanitizer_finish_switch_fiber(fake_stack_save, old_bottom, old_size);
#endif
}
// A reused stack may still carry poison from frames an exception unwound; clear it before a new start.
void unpoison([[maybe_unused]] void* p, [[maybe_unused]] std::size_t n) {
#ifdef TILESIM_ASAN
  __asan_unpoison_memory_region(p, n);
#endif
}

std::size_t page_size() {
  const long p = sysconf(_SC_PAGESIZE);
  return p > 0 ? static_cast<std::size_t>(p) : 4096;
}

}  // namespace

struct fiber_set::state {
  struct fiber {
    fctx::fcontext_t context = nullptr;  // where it continues (made by start, saved at each suspend)
    unsigned char* stack = nullptr;  // lowest usable byte (the guard page sits just below)
    entry_function entry = nullptr;
    void* arg = nullptr;
    void* fake_stack = nullptr;  // ASan's saved fake stack while suspended
    bool started = false;
    bool finished = false;
    bool measured = false;
  };

  int count = 0;
  std::size_t stack_bytes = 0;
  std::size_t guard_bytes = 0;
  void* mapping = nullptr;
  std::size_t mapping_bytes = 0;
  std::vector<fiber> fibers;
  fctx::fcontext_t scheduler = nullptr;  // where the running fiber's suspend returns to
  int current = -1;
  void* scheduler_fake_stack = nullptr;
  const void* scheduler_stack_bottom = nullptr;  // learnt from ASan at the first switch into a fiber
  std::size_t scheduler_stack_size = 0;

  fiber& at(int i) {
    if (i < 0 || i >= count)
      throw std::out_of_range("fiber_set: fiber " + std::to_string(i) + " of " + std::to_string(count));
    return fibers[static_cast<std::size_t>(i)];
  }
};

struct fiber_set::trampoline {
  // The first code on a fiber's stack: `t` holds the scheduler's context and the set (resume's argument).
  [[noreturn]] static void enter(fctx::transfer_t t) {
    auto* self = static_cast<fiber_set*>(t.data);
    state& s = *self->s_;
    s.scheduler = t.fctx;
    finish_switch(nullptr, &s.scheduler_stack_bottom, &s.scheduler_stack_size);
    const int index = s.current;
    state::fiber& fb = s.fibers[static_cast<std::size_t>(index)];
    fb.entry(fb.arg, index);  // the engine's entry catches everything
    fb.finished = true;
    start_switch(nullptr, s.scheduler_stack_bottom, s.scheduler_stack_size);  // leaving for good: drop the fake stack
    fctx::jump_fcontext(s.scheduler, nullptr);
    __builtin_trap();  // a finished fiber is never resumed
  }
};

fiber_set::fiber_set(int count, std::size_t stack_bytes) : s_(std::make_unique<state>()) {
  if (count < 1) throw std::invalid_argument("fiber_set: count must be >= 1 (count = " + std::to_string(count) + ")");
  if (stack_bytes < 16 * 1024)
    throw std::invalid_argument("fiber_set: a stack needs >= 16384 bytes (stack_bytes = " +
                                std::to_string(stack_bytes) + ")");
  const std::size_t page = page_size();
  s_->count = count;
  s_->stack_bytes = (stack_bytes + page - 1) / page * page;
  s_->guard_bytes = page;
  const std::size_t slot = s_->stack_bytes + s_->guard_bytes;
  s_->mapping_bytes = slot * static_cast<std::size_t>(count);
  void* m = mmap(nullptr, s_->mapping_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
  if (m == MAP_FAILED)
    throw std::runtime_error("fiber_set: cannot map " + std::to_string(count) + " stacks of " +
                             std::to_string(s_->stack_bytes) + " bytes: " + std::strerror(errno));
  s_->mapping = m;
  s_->fibers.resize(static_cast<std::size_t>(count));
  auto* base = static_cast<unsigned char*>(m);
  for (int i = 0; i < count; ++i) {
    unsigned char* guard = base + slot * static_cast<std::size_t>(i);
    if (mprotect(guard, s_->guard_bytes, PROT_NONE) != 0) {
      munmap(m, s_->mapping_bytes);
      throw std::runtime_error(std::string("fiber_set: cannot protect a guard page: ") + std::strerror(errno));
    }
    s_->fibers[static_cast<std::size_t>(i)].stack = guard + s_->guard_bytes;
  }
}

fiber_set::~fiber_set() {
  if (s_ && s_->mapping) munmap(s_->mapping, s_->mapping_bytes);
}

int fiber_set::count() const { return s_->count; }
std::size_t fiber_set::stack_bytes() const { return s_->stack_bytes; }
int fiber_set::current() const { return s_->current; }
bool fiber_set::finished(int i) const { return s_->at(i).finished; }

void fiber_set::start(int i, entry_function f, void* arg, bool measure) {
  state::fiber& fb = s_->at(i);
  if (s_->current == i) throw std::logic_error("fiber_set: cannot restart the running fiber " + std::to_string(i));
  unpoison(fb.stack, s_->stack_bytes);
  if (measure) std::memset(fb.stack, paint_byte, s_->stack_bytes);
  fb.entry = f;
  fb.arg = arg;
  fb.started = true;
  fb.finished = false;
  fb.measured = measure;
  fb.fake_stack = nullptr;
  fb.context = fctx::make_fcontext(fb.stack + s_->stack_bytes, s_->stack_bytes, &trampoline::enter);
}

void fiber_set::resume(int i) {
  state::fiber& fb = s_->at(i);
  if (s_->current != -1)
    throw std::logic_error("fiber_set: resume called from inside fiber " + std::to_string(s_->current));
  if (!fb.started || fb.finished) throw std::logic_error("fiber_set: fiber " + std::to_string(i) + " is not runnable");
  s_->current = i;
  start_switch(&s_->scheduler_fake_stack, fb.stack, s_->stack_bytes);
  const fctx::transfer_t back = fctx::jump_fcontext(fb.context, this);
  fb.context = back.fctx;  // the fiber's suspend point (meaningless once it finished)
  finish_switch(s_->scheduler_fake_stack, nullptr, nullptr);
  s_->current = -1;
}

void fiber_set::suspend() {
  if (s_->current < 0) throw std::logic_error("fiber_set: suspend called outside a fiber");
  state::fiber& fb = s_->fibers[static_cast<std::size_t>(s_->current)];
  start_switch(&fb.fake_stack, s_->scheduler_stack_bottom, s_->scheduler_stack_size);
  const fctx::transfer_t from = fctx::jump_fcontext(s_->scheduler, nullptr);
  s_->scheduler = from.fctx;  // the scheduler's resume() that woke this fiber
  finish_switch(fb.fake_stack, &s_->scheduler_stack_bottom, &s_->scheduler_stack_size);
}

std::size_t fiber_set::stack_used(int i) const {
  const state::fiber& fb = s_->at(i);
  if (!fb.measured) return 0;
  std::size_t untouched = 0;  // the stack grows down: count painted bytes from the bottom
  while (untouched < s_->stack_bytes && fb.stack[untouched] == paint_byte) ++untouched;
  return s_->stack_bytes - untouched;
}

}  // namespace tilesim::sim
