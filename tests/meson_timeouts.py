#!/usr/bin/env python3
"""Every test() in every meson.build states its timeout and its suite (issue 38).

Law: meson's default of 30 s killed the sanitizer build's suites on a busy machine; a test whose budget is
written down next to it fails only when it is really slow. Usage: meson_timeouts.py REPO_ROOT; prints each
test() without `timeout:` or `suite:` as FILE:LINE: NAME and exits 1, else prints the count and exits 0.
"""
import pathlib
import re
import sys


def calls(text):
    """Yield (offset, argument text) of every test( ... ) call, parentheses balanced, strings and comments skipped."""
    for m in re.finditer(r"(?<![\w.])test\(", text):
        depth, i, quote = 1, m.end(), None
        while i < len(text) and depth:
            c = text[i]
            if quote:
                if c == "\\":
                    i += 1
                elif c == quote:
                    quote = None
            elif c == "'":
                quote = c
            elif c == "#":
                while i < len(text) and text[i] != "\n":
                    i += 1
                continue
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            i += 1
        yield m.start(), text[m.end():i - 1]


def without_comments(line):
    """A meson line without its # comment (a '#' inside a string stays)."""
    out, quote = "", False
    for c in line:
        if c == "'":
            quote = not quote
        if c == "#" and not quote:
            break
        out += c
    return out


def main(root):
    root = pathlib.Path(root)
    bad, total = [], 0
    for path in sorted(root.rglob("meson.build")):
        if any(part.startswith(("build", ".")) or part == "subprojects" for part in path.relative_to(root).parts[:-1]):
            continue
        text = "\n".join(without_comments(l) for l in path.read_text().splitlines())
        for offset, args in calls(text):
            total += 1
            name = args.split(",")[0].strip()
            missing = [k for k in ("timeout:", "suite:") if k not in args]
            if missing:
                line = text.count("\n", 0, offset) + 1
                bad.append(f"{path.relative_to(root)}:{line}: test {name} states no {' and no '.join(missing)}")
    for b in bad:
        print(b)
    if bad:
        return 1
    print(f"{total} test() calls, each with its timeout and suite")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
