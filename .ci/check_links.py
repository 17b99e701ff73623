#!/usr/bin/env python3
"""Checks every relative link of the README, the top-level documents and the book (docs/): the
file it names exists, and an anchor (`page.md#heading`) names a heading of that page, as GitHub
and mdBook make them (lower case, spaces to hyphens, punctuation dropped). External links
(http, https, mailto) are not fetched: CI has no internet. Prints each broken link with its file
and line, and exits 1 when there is one."""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def slug(heading):
    text = re.sub(r"`|\*|_", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def headings(path):
    found, fenced = set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            base = slug(line.lstrip("#"))
            name, n = base, 1
            while name in found:  # a repeated heading gets -1, -2, ...
                name, n = f"{base}-{n}", n + 1
            found.add(name)
    return found


def links(path):
    fenced = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        line = re.sub(r"`[^`]*`", "", line)  # code spans hold no links
        for target in LINK.findall(line):
            yield number, target


def main():
    pages = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md"]
    pages += sorted((ROOT / "docs").rglob("*.md"))
    broken = []
    for page in pages:
        if not page.exists():
            continue
        for number, target in links(page):
            if re.match(r"^[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            dest = (page.parent / file).resolve() if file else page
            where = f"{page.relative_to(ROOT)}:{number}: {target}"
            if not dest.exists():
                broken.append(f"{where}: no such file")
            elif anchor and dest.suffix == ".md" and anchor not in headings(dest):
                broken.append(f"{where}: no heading #{anchor} in {dest.relative_to(ROOT)}")
    for line in broken:
        print(line)
    print(f"check_links: {len(pages)} pages, {len(broken)} broken links")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
