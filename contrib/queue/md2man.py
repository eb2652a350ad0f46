#!/usr/bin/env python3
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Turns one of our reference pages (docs/man/NAME.3.md) into a roff man
# page, the form Open MPI 5.0.7 installs its own in (its tarball carries
# them prebuilt in docs/man/).  Only the Markdown our pages use: a "# NAME(3)"
# title line, "##"/"###" headings, paragraphs, "- " lists, fenced code
# blocks, pipe tables, `code`, *emphasis* and **strong**.
#
# Usage: md2man.py PAGE.3.md VERSION   (roff on stdout)

import re
import sys


def escape(text):
    """roff-escape plain text (backslashes, and a leading . or ')."""
    text = text.replace("\\", "\\e")
    if text.startswith(".") or text.startswith("'"):
        text = "\\&" + text
    return text


def inline(text):
    """Markdown inline markup to roff fonts."""
    out = []
    # code spans first: their content is literal
    for i, part in enumerate(re.split(r"`([^`]*)`", text)):
        if 1 == i % 2:
            out.append("\\fB" + part.replace("\\", "\\e").replace("-", "\\-") + "\\fR")
            continue
        part = part.replace("\\", "\\e")
        part = re.sub(r"\*\*([^*]+)\*\*", r"\\fB\1\\fR", part)
        part = re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", r"\\fI\1\\fR", part)
        out.append(part)
    line = "".join(out)
    if line.startswith(".") or line.startswith("'"):
        line = "\\&" + line
    return line


def table(rows):
    """A pipe table as aligned preformatted text (no tbl preprocessor)."""
    cells = []
    for row in rows:
        parts = [c.strip() for c in row.strip().strip("|").split("|")]
        if all(re.fullmatch(r":?-+:?", c) for c in parts):
            continue
        cells.append([c.replace("`", "") for c in parts])
    widths = [max(len(r[i]) if i < len(r) else 0 for r in cells)
              for i in range(max(len(r) for r in cells))]
    lines = [".PP", ".nf"]
    for r in cells:
        lines.append(escape("  ".join(c.ljust(widths[i]) for i, c in enumerate(r)).rstrip()))
    lines.append(".fi")
    return lines


def convert(path, version):
    src = open(path, encoding="utf-8").read().splitlines()
    title = re.match(r"#\s+(\S+?)\((\d)\)", src[0])
    if not title:
        sys.exit("%s: the first line is not a '# NAME(3)' title" % path)
    name, section = title.group(1), title.group(2)
    out = ['.\\" Made from %s by contrib/queue/md2man.py; do not edit.' % path.split("/")[-1],
           '.TH "%s" "%s" "" "%s" "Open MPI"' % (name, section, version)]
    i = 1
    para = []

    def flush():
        if para:
            out.append(".PP")
            out.append(inline(" ".join(para)))
            para.clear()

    while i < len(src):
        line = src[i]
        if line.startswith("```"):
            flush()
            out += [".PP", ".nf", ".RS 4"]
            i += 1
            while i < len(src) and not src[i].startswith("```"):
                out.append(escape(src[i]) if src[i] else "")
                i += 1
            out += [".RE", ".fi"]
        elif line.startswith("### "):
            flush()
            out.append('.SS "%s"' % line[4:].replace("`", "").replace('"', "'"))
        elif line.startswith("## "):
            flush()
            out.append(".SH %s" % line[3:].upper())
        elif line.startswith("|"):
            flush()
            rows = []
            while i < len(src) and src[i].startswith("|"):
                rows.append(src[i])
                i += 1
            out += table(rows)
            continue
        elif re.match(r"(\s*)(- |\d+\. )", line):
            flush()
            m = re.match(r"(\s*)(- |\d+\. )(.*)", line)
            item = [m.group(3)]
            indent = len(m.group(1)) + len(m.group(2))
            i += 1
            while i < len(src) and src[i].strip() and not re.match(r"\s*(- |\d+\. )", src[i]) \
                    and src[i].startswith(" " * indent):
                item.append(src[i].strip())
                i += 1
            bullet = "\\(bu" if m.group(2) == "- " else m.group(2).strip()
            out.append(".IP %s %d" % (bullet, 4 if len(m.group(1)) == 0 else 6))
            out.append(inline(" ".join(item)))
            continue
        elif not line.strip():
            flush()
        else:
            para.append(line.strip())
        i += 1
    flush()
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: md2man.py PAGE.3.md VERSION")
    sys.stdout.write(convert(sys.argv[1], sys.argv[2]))
