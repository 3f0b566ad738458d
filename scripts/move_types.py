#!/usr/bin/env python3
"""Moves Java types from one package to another, mechanically, across the whole repository.

    scripts/move_types.py FROM_PACKAGE TO_PACKAGE Type [Type...]

Each Type's file moves (git mv) to TO_PACKAGE's folder in the same source root; its package line changes;
every import and fully qualified name of it in *.java and *.md files follows; files left in FROM_PACKAGE that
use a moved type by its simple name get an import, and the moved files get imports of the FROM_PACKAGE types
they use. Re-run it after a merge to move what the merge brought in. It changes nothing else: review with
`git diff --stat` and compile.
"""
import os
import re
import subprocess
import sys


def java_files():
    out = subprocess.check_output(["git", "ls-files", "*.java"], text=True)
    return [f for f in out.split() if os.path.exists(f)]


def add_imports(text, imports):
    if not imports:
        return text
    lines = text.split("\n")
    last_import = None
    package_line = None
    for i, line in enumerate(lines):
        if line.startswith("package "):
            package_line = i
        if line.startswith("import ") and not line.startswith("import static "):
            last_import = i
    new = ["import %s;" % i for i in sorted(imports) if ("import %s;" % i) not in lines]
    if not new:
        return text
    if last_import is not None:
        lines[last_import + 1:last_import + 1] = new
    else:
        lines[package_line + 1:package_line + 1] = [""] + new
    return "\n".join(lines)


def code_only(text):
    """The text without comments and string literals (for deciding which simple names a file uses)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'"(\\.|[^"\\])*"', '""', text)
    return text


def main():
    src, dst, types = sys.argv[1], sys.argv[2], sys.argv[3:]
    src_dir, dst_dir = src.replace(".", "/"), dst.replace(".", "/")
    files = java_files()
    moved = {}
    for t in types:
        hits = [f for f in files if f.endswith("/" + src_dir + "/" + t + ".java")]
        if len(hits) != 1:
            sys.exit("%s.%s: expected one file, found %s" % (src, t, hits))
        old = hits[0]
        new = old.replace("/" + src_dir + "/" + t + ".java", "/" + dst_dir + "/" + t + ".java")
        os.makedirs(os.path.dirname(new), exist_ok=True)
        subprocess.check_call(["git", "mv", old, new])
        moved[t] = new
    files = java_files()
    src_types = {os.path.basename(f)[:-5] for f in files if os.path.dirname(f).endswith("/" + src_dir)}
    names = "|".join(types)
    qualified = re.compile(r"\b" + re.escape(src) + r"\.(" + names + r")\b")
    docs = subprocess.check_output(["git", "ls-files", "*.md"], text=True).split()
    for f in files + docs:
        with open(f, encoding="utf-8") as fh:
            text = fh.read()
        new = qualified.sub(lambda m: dst + "." + m.group(1), text)
        if f.endswith(".java"):
            pkg = re.search(r"^package ([\w.]+);", new, flags=re.M)
            pkg = pkg.group(1) if pkg else ""
            code = code_only(new)
            if f in moved.values():
                new = new.replace("package %s;" % src, "package %s;" % dst, 1)
                uses = {s for s in src_types - set(types) if re.search(r"\b" + s + r"\b", code)}
                new = add_imports(new, {src + "." + s for s in uses})
            elif pkg == src:
                uses = {t for t in types if re.search(r"\b" + t + r"\b", code)}
                new = add_imports(new, {dst + "." + t for t in uses})
        if new != text:
            with open(f, "w", encoding="utf-8") as fh:
                fh.write(new)


if __name__ == "__main__":
    main()
