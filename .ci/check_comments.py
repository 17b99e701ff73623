"""Checks the comments of eddy's Rust and WGSL sources against the tree they describe.

- Every source file a comment names (`something.rs`, `something.wgsl`, or a path such as
  `docs/performance.md`, `.ci/check_video.py`) exists: as a path from the commenting file's
  folder or any folder above it up to the repository's root, from `src/` or `shaders/`, or (a
  bare file name) as some tracked file's name. A comment naming a shader that was renamed or removed fails here.
- Every path into the tree that the README, the top-level documents and the book name
  (`src/smoke/params.rs`, `shaders/gas/`, `examples/python/cavity.py`) exists.
- No comment carries an issue number ("issue 24"): comments say what the code is and why;
  its history is in git and CHANGELOG.md.

    python3 .ci/check_comments.py        # from the repository's root; exits 1 on a finding
"""

import os
import re
import subprocess
import sys

ROOTS = ("src", "shaders", "tests", "examples", "python/src", "web/src", "benches", "build.rs")
SOURCE = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*[\w-]+\.(?:rs|wgsl))\b")
PATHLIKE = re.compile(r"(?<![\w./-])((?:\.?[\w-]+/)+[\w-]+\.(?:md|py|sh|toml))\b")
TREE_PATH = re.compile(r"(?<![\w./-])((?:src|shaders|tests|examples|python|web|docs|benches|\.ci)/[\w/.*-]*[\w/])")
# What a build writes (web/build.sh's site), named by the pages but not tracked.
GENERATED = ("web/site",)
ISSUE = re.compile(r"\bissues? #?\d+", re.I)


def comments(line):
    """The comment text of a Rust or WGSL line ('' when it has none)."""
    stripped = line.strip()
    if stripped.startswith("//"):
        return stripped.lstrip("/!").strip()
    # A trailing comment: `code; // why`, not the `//` of a URL inside a string.
    at = line.find(" // ")
    return line[at + 4:] if at >= 0 and line[:at].count('"') % 2 == 0 else ""


def tree_files():
    """The checkout's files: git's list, or (no git, or not a repository) a walk of the tree
    without build outputs."""
    try:
        return subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        files = []
        for root, dirs, names in os.walk("."):
            dirs[:] = [d for d in dirs if d not in ("target", ".git", "node_modules", "site", "__pycache__")]
            files += [os.path.relpath(os.path.join(root, n)) for n in names]
        return files


def main():
    tracked = tree_files()
    names = {os.path.basename(p) for p in tracked}
    files = [p for p in tracked if p.startswith(ROOTS) and p.endswith((".rs", ".wgsl"))]
    problems = []
    for path in files:
        folder = os.path.dirname(path)
        for n, line in enumerate(open(path, encoding="utf-8"), 1):
            text = comments(line)
            if not text:
                continue
            for match in ISSUE.finditer(text):
                problems.append(f"{path}:{n}: names {match.group(0)!r}: say what the code does and why (history is in git)")
            for named in SOURCE.findall(text) + PATHLIKE.findall(text):
                bare = "/" not in named
                ancestors = [folder]
                while ancestors[-1]:
                    ancestors.append(os.path.dirname(ancestors[-1]))
                candidates = [os.path.join(a, named) for a in ancestors + ["src", "shaders"]]
                if any(os.path.exists(c) for c in candidates) or (bare and named in names):
                    continue
                problems.append(f"{path}:{n}: names {named}, which does not exist")
    # The book, the README and the top-level documents: every path into the tree they name.
    pages = [p for p in tracked if p.endswith(".md") and (p.startswith("docs/") or "/" not in p)]
    for page in pages:
        for n, line in enumerate(open(page, encoding="utf-8"), 1):
            for named in TREE_PATH.findall(line):
                named = named.rstrip(".,:;)")
                if named.startswith(GENERATED) or "*" in named or os.path.exists(named):
                    continue
                problems.append(f"{page}:{n}: names {named}, which does not exist")
    for p in problems:
        print(p)
    print(f"check_comments: {len(files)} sources, {len(pages)} pages, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
