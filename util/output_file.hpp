// tilesim/util/output_file.hpp: writing an output file (an SVG) so that a failure loses nothing.
//
// write_file_replacing(path, content, "--svg") writes a temporary file beside `path` and renames it over
// `path` only when every byte is written: an existing file is either replaced whole or left as it was.
// Only a regular file or a new path is replaced: a symlink, directory, FIFO or device node at `path` is refused
// (usage_error "--svg: '/dev/null' is not a regular file (a device node); ..."), and left as it was. The path
// "-" writes `content` to stdout instead.
// Any failure throws usage_error naming the option and the path ("--svg: cannot write 'x/y.svg': No such
// file or directory"), which main() prints as one line with exit code 2.
#pragma once

#include <string>

namespace tilesim::cli {

// Replaces `path` with `content` atomically; `option` names the option in errors.
void write_file_replacing(const std::string& path, const std::string& content, const std::string& option);

}  // namespace tilesim::cli
