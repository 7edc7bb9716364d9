// tilesim/python/src/run.cpp: `tilesim run` for Python, its report as the JSON text the command prints.
//
// run_json(["copy", "--layout", "ck-xor"]) == (0, "{...}"): cli/run.cpp's run_program_command with --json added,
// its standard output captured; the exit code says whether the program's result was right (0) or wrong (1).
// Going through the command itself keeps the two identical (docs/schema/run.schema.json describes the object).
#include <iostream>
#include <sstream>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "cli/run.hpp"
#include "python/src/bindings.hpp"

namespace py = pybind11;

namespace tilesim::python {
namespace {

// Swaps std::cout's buffer for a string's while it lives (restored on every exit, exceptions included).
class captured_stdout {
 public:
  captured_stdout() : old_(std::cout.rdbuf(text_.rdbuf())) {}
  ~captured_stdout() { std::cout.rdbuf(old_); }
  captured_stdout(const captured_stdout&) = delete;
  captured_stdout& operator=(const captured_stdout&) = delete;
  std::string text() const { return text_.str(); }

 private:
  std::ostringstream text_;
  std::streambuf* old_;
};

py::tuple run_json(std::vector<std::string> args) {
  for (const std::string& a : args)
    if (a == "--help" || a == "-h" || a == "--json" || a == "--progress")
      throw std::invalid_argument("run: option " + a + " is not for the Python door (it asks for the JSON itself)");
  args.push_back("--json");
  int code = 0;
  std::string text;
  {
    py::gil_scoped_release release;  // the simulator may take seconds; other Python threads go on
    captured_stdout out;
    code = cli::run_program_command(args);
    text = out.text();
  }
  return py::make_tuple(code, text);
}

}  // namespace

void bind_run(py::module_& m) {
  m.def("run_json", &run_json, py::arg("args"),
        "`tilesim run ARGS... --json`: (exit code, the report's JSON text)");
  m.def("run_help", [] { return cli::run_help(); }, "`tilesim run --help`'s text");
}

}  // namespace tilesim::python
