// Laws of the engine's grouping (sim/engine/grouping.hpp) on divergent programs: over random structured programs
// (accesses at their own sites, if/else on lane predicates, loops with lane-dependent trip counts, early exits),
// the instructions the simulator makes are exactly those a SIMT machine with a reconvergence stack issues (the same
// lanes at the same addresses, so the same LDS wavefronts), each lane's in its own order, with no ambiguity. The reference here executes the
// program tree once per wave with an active mask; the simulator runs it once per lane and groups what it recorded.
// Outside this class (loops nested in loops whose inner trip counts differ by lane, guards that lanes pass in
// different steps of a loop) the accesses alone do not say which step a lane is in; grouping.hpp says so.
// A counterexample prints as the program tree, one node per line.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "props/generators.hpp"
#include "sim/arch/arch.hpp"
#include "sim/engine/engine.hpp"
#include "sim/models/lds_banks.hpp"

using namespace tilesim;
using namespace tilesim::props;
using tilesim::sim::address_t;
using tilesim::sim::no_address;

namespace {

// A node of a structured program: an access, an if/else, a loop, or an exit of some lanes.
struct node {
  enum class what { access, branch, loop, exit } kind = what::access;
  int site = 0;                 // access: its site number (its own source line)
  int width = 4;                // access: bytes
  bool store = false;           // access: a store, else a load
  int bit = 0, value = 0;       // branch / exit: lanes with ((lane >> bit) & 1) == value take the then side / leave
  int trip = 1, spread = 0;     // loop: lane l runs trip + (l >> spread_shift) % (spread + 1) steps
  int shift = 0;
  std::vector<node> body, other;  // loop body or then side; else side
};

std::string text_of(const std::vector<node>& p, int depth = 0) {
  std::string s, pad(static_cast<std::size_t>(2 * depth), ' ');
  for (const node& n : p) {
    switch (n.kind) {
      case node::what::access:
        s += pad + (n.store ? "store " : "load ") + std::to_string(n.width) + " B at site " + std::to_string(n.site) + "\n";
        break;
      case node::what::exit:
        s += pad + "return when ((lane >> " + std::to_string(n.bit) + ") & 1) == " + std::to_string(n.value) + "\n";
        break;
      case node::what::branch:
        s += pad + "if (((lane >> " + std::to_string(n.bit) + ") & 1) == " + std::to_string(n.value) + ")\n" +
             text_of(n.body, depth + 1) + pad + "else\n" + text_of(n.other, depth + 1);
        break;
      case node::what::loop:
        s += pad + "for (s = 0; s < " + std::to_string(n.trip) + " + (lane >> " + std::to_string(n.shift) + ") % " +
             std::to_string(n.spread + 1) + "; ++s)\n" + text_of(n.body, depth + 1);
        break;
    }
  }
  return s;
}

struct program_case {
  int wave = 32;
  std::vector<node> tree;
};
void showValue(const program_case& c, std::ostream& os) { os << "wave of " << c.wave << " lanes:\n" << text_of(c.tree); }

// Steps of loop n for lane l.
int trips(const node& n, int lane) { return n.trip + (lane >> n.shift) % (n.spread + 1); }
bool takes(const node& n, int lane) { return ((lane >> n.bit) & 1) == n.value; }

rc::Gen<std::vector<node>> gen_block(int depth, bool in_loop);

rc::Gen<node> gen_node(int depth, bool in_loop) {
  return rc::gen::exec([depth, in_loop] {
    node n;
    const int pick = depth >= 2 ? 0 : *rc::gen::inRange(0, 10);
    if (pick < 5) {
      n.width = *gen_pick<int>({4, 8, 16});
      n.store = *rc::gen::arbitrary<bool>();
    } else if (pick < 7) {
      n.kind = node::what::branch;
      n.bit = *rc::gen::inRange(0, 5);
      n.value = *rc::gen::inRange(0, 2);
      n.body = *gen_block(depth + 1, in_loop);
      n.other = *gen_block(depth + 1, in_loop);
    } else if (pick < 9 && !in_loop) {  // loops nest only with uniform inner trip counts: see the essay
      n.kind = node::what::loop;
      n.trip = *rc::gen::inRange(0, 3);
      n.spread = *rc::gen::inRange(0, 3);
      n.shift = *rc::gen::inRange(0, 5);
      n.body = *gen_block(depth + 1, true);
    } else if (!in_loop) {
      n.kind = node::what::exit;
      n.bit = *rc::gen::inRange(0, 5);
      n.value = *rc::gen::inRange(0, 2);
    }
    return n;
  });
}

rc::Gen<std::vector<node>> gen_block(int depth, bool in_loop) {
  return rc::gen::exec([depth, in_loop] {
    std::vector<node> b;
    const int count = *rc::gen::inRange(1, depth == 0 ? 6 : 4);
    for (int i = 0; i < count; ++i) b.push_back(*gen_node(depth, in_loop));
    return b;
  });
}

// Gives every access node its own site number, in program order.
void number_sites(std::vector<node>& b, int& next) {
  for (node& n : b) {
    if (n.kind == node::what::access) n.site = next++;
    number_sites(n.body, next);
    number_sites(n.other, next);
  }
}

// A lane's k-th access lands at a byte of its own: the address says which lane and which access it was.
address_t address_of(int lane, int k, int wave) { return static_cast<address_t>(16 * (lane + wave * k)); }
constexpr int max_accesses = 64;  // per lane; programs with more are not generated (the LDS holds them)

// One lane's walk of the tree as the simulator runs it: every access through a buffer call at the node's site.
struct lane_walk {
  sim::thread_context& ctx;
  sim::recording_buffer<float> lds;
  int lane, wave, k = 0;
  bool gone = false;
  static constexpr const char* file = "reconvergence program";  // one file; the site is its line
  void run(const std::vector<node>& b) {
    for (const node& n : b) {
      if (gone) return;
      switch (n.kind) {
        case node::what::access: {
          float v[4] = {};
          const index_t at = static_cast<index_t>(address_of(lane, k++, wave) / 4);
          if (n.store) lds.store(at, n.width / 4, v, true, file, n.site);
          else lds.load(at, n.width / 4, v, true, file, n.site);
          break;
        }
        case node::what::exit:
          gone = takes(n, lane);
          break;
        case node::what::branch:
          run(takes(n, lane) ? n.body : n.other);
          break;
        case node::what::loop:
          for (int s = 0; s < trips(n, lane) && !gone; ++s) run(n.body);
          break;
      }
    }
  }
};

// The reference: a SIMT machine with a reconvergence stack, one instruction per access node reached with some lane
// active, the then side before the else side.
struct simt_machine {
  int wave;
  std::vector<int> k;          // per lane: accesses made
  std::vector<bool> gone;      // per lane: left the program
  std::vector<sim::wave_access> out;
  void run(const std::vector<node>& b, std::vector<bool> mask) {
    for (const node& n : b) {
      for (int l = 0; l < wave; ++l) mask[static_cast<std::size_t>(l)] = mask[static_cast<std::size_t>(l)] && !gone[static_cast<std::size_t>(l)];
      if (std::find(mask.begin(), mask.end(), true) == mask.end()) return;
      switch (n.kind) {
        case node::what::access: {
          sim::wave_access a{"", n.store ? sim::access_kind::store : sim::access_kind::load, sim::memory_space::lds,
                             n.width, std::vector<address_t>(static_cast<std::size_t>(wave), no_address)};
          for (int l = 0; l < wave; ++l)
            if (mask[static_cast<std::size_t>(l)]) a.address[static_cast<std::size_t>(l)] = address_of(l, k[static_cast<std::size_t>(l)]++, wave);
          out.push_back(std::move(a));
          break;
        }
        case node::what::exit:
          for (int l = 0; l < wave; ++l)
            if (mask[static_cast<std::size_t>(l)] && takes(n, l)) gone[static_cast<std::size_t>(l)] = true;
          break;
        case node::what::branch: {
          std::vector<bool> then(mask), other(mask);
          for (std::size_t i = 0; i < mask.size(); ++i) {
            then[i] = mask[i] && takes(n, static_cast<int>(i));
            other[i] = mask[i] && !takes(n, static_cast<int>(i));
          }
          run(n.body, then);  // the then side's sites come first in the source
          run(n.other, other);
          break;
        }
        case node::what::loop:
          for (int s = 0;; ++s) {
            std::vector<bool> step(mask);
            bool any = false;
            for (int l = 0; l < wave; ++l) {
              const auto i = static_cast<std::size_t>(l);
              step[i] = mask[i] && !gone[i] && s < trips(n, l);
              any = any || step[i];
            }
            if (!any) break;
            run(n.body, step);
          }
          break;
      }
    }
  }
};

}  // namespace

TEST_SUITE("reconvergence") {
  TEST_CASE("a divergent structured program's instructions are a reconvergence stack's and price the same") {
    const auto law = [] {
      program_case c = *rc::gen::exec([] {
        program_case p;
        p.wave = *gen_pick<int>({32, 64});
        p.tree = *gen_block(0, false);
        int sites = 0;
        number_sites(p.tree, sites);
        return p;
      });
      int sites = 0;
      number_sites(c.tree, sites);  // again: a shrunk tree keeps its numbers
      simt_machine ref{c.wave, std::vector<int>(static_cast<std::size_t>(c.wave), 0),
                       std::vector<bool>(static_cast<std::size_t>(c.wave), false), {}};
      ref.run(c.tree, std::vector<bool>(static_cast<std::size_t>(c.wave), true));
      RC_PRE(*std::max_element(ref.k.begin(), ref.k.end()) <= max_accesses);
      const sim::run_result r = sim::run(
          {.block = c.wave, .wave_size = c.wave}, sim::global_memory{}, [&](sim::thread_context& ctx) {
            lane_walk w{ctx, ctx.lds<float>(4 * c.wave * (max_accesses + 1)), static_cast<int>(ctx.lane()), c.wave};
            w.run(c.tree);
          });
      RC_ASSERT(r.workgroups.size() == 1u);
      const sim::workgroup_record& wg = r.workgroups[0];
      RC_ASSERT(wg.ambiguities.empty());
      const std::vector<sim::wave_instruction>& got = wg.waves[0].instructions;
      RC_ASSERT(got.size() == ref.out.size());
      // Each lane's accesses in its own order (its k-th access at address_of(lane, k)).
      std::vector<address_t> last(static_cast<std::size_t>(c.wave), no_address);
      for (const sim::wave_instruction& i : got)
        for (std::size_t l = 0; l < last.size(); ++l)
          if (const address_t a = i.access.address[l]; a != no_address) {
            RC_ASSERT(last[l] == no_address || a > last[l]);
            last[l] = a;
          }
      // The same instructions as the stack's, each with the same wavefronts (the order of independent sides is the
      // scheduler's choice: a stack issues an else side before the next loop step, a min-PC scheduler after).
      const sim::arch_table& arch = sim::arch_named(c.wave == 32 ? "sm90" : "gfx942");
      auto as_text = [&](const sim::wave_access& a) {
        std::string t = std::to_string(a.width) + (a.kind == sim::access_kind::store ? " store" : " load") + " " +
                        std::to_string(sim::lds_instruction_cost(arch, a).wavefronts) + " wavefronts @";
        for (const address_t x : a.address) t += " " + (x == no_address ? std::string("-") : std::to_string(x));
        return t;
      };
      std::vector<std::string> want, have;
      for (const sim::wave_access& a : ref.out) want.push_back(as_text(a));
      for (const sim::wave_instruction& i : got) have.push_back(as_text(i.access));
      std::sort(want.begin(), want.end());
      std::sort(have.begin(), have.end());
      RC_ASSERT(have == want);
    };
    CHECK(rc::check("grouped instructions == the SIMT stack's (lanes, addresses, wavefronts), each lane in its order, "
                    "no ambiguity",
                    law));
  }
}
