#!/usr/bin/python3
"""Writes tutorials/NN_NAME.expected for each numbered lesson tutorials/NN_NAME.py.

A lesson is a script of cells separated by "# %%" lines. Its plain-PyTorch cells
run here under CPython 3.11 with Debian's PyTorch 1.13 (from tutorials/, one
process for the whole lesson), and what they print is the expected text, byte for
byte. A cell marked "# %% [nnscope] ..." uses what only nnscope has (plot,
summary, inspect, magics): PyTorch cannot run it, so its expected output is a
golden file, tutorials/golden/NN_NAME.K.out (K counts the lesson's nnscope cells
from 1), spliced in at its place. tests/run.sh plays each lesson with
`build/nnscope --lesson tutorials/NN_NAME.py` and compares everything it prints
(stdout and stderr) with NN_NAME.expected.

Golden files are nnscope's own output, read and checked by a person before they
are committed:  /usr/bin/python3 tutorials/gen_expected.py --golden [NN_NAME.py ...]
runs build/nnscope (or $NNSCOPE) over the lesson and rewrites them.

Run: /usr/bin/python3 tutorials/gen_expected.py [--golden] [NN_NAME.py ...]
"""
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MARK = "# %%"


def cells(path):
    """The lesson's cells as (is_nnscope, text), the text before the first mark included."""
    out, kind, lines = [], False, []
    with open(path) as f:
        for line in f:
            if line.startswith(MARK):
                out.append((kind, "".join(lines)))
                kind, lines = "[nnscope]" in line, [line]
            else:
                lines.append(line)
    out.append((kind, "".join(lines)))
    return out


def golden_path(name, k):
    return os.path.join(HERE, "golden", f"{name}.{k}.out")


def rewrite(path, nnscope_cell):
    """The lesson's text with its K-th nnscope cell (text) replaced by nnscope_cell(k, text)."""
    source, k = [], 0
    for nnscope_only, text in cells(path):
        if nnscope_only:
            k += 1
            text = nnscope_cell(k, text)
        source.append(text)
    return "".join(source)


def run_python(path, name):
    """The lesson's expected text: PyTorch's output with the golden files spliced in."""
    source = rewrite(path, lambda k, text: f"print('<<golden {k}>>')\n")
    r = subprocess.run(["/usr/bin/python3", "-c", source], cwd=HERE, capture_output=True, text=True)
    if r.returncode != 0 or r.stderr:
        sys.exit(f"{name}: PyTorch printed on stderr or failed:\n{r.stderr}")
    def golden(m):
        with open(golden_path(name, int(m.group(1)))) as f:
            return f.read()
    return re.sub(r"<<golden (\d+)>>\n", golden, r.stdout)


def write_golden(path, name):
    """Runs nnscope over the lesson with marks around its nnscope cells; writes what each printed."""
    source = rewrite(path, lambda k, text: f"{MARK}\nprint('<<golden {k}>>')\n{text}\n{MARK}\nprint('<<end {k}>>')\n")
    tmp = os.path.join(HERE, f".{name}.golden.py")
    with open(tmp, "w") as f:
        f.write(source)
    nnscope = os.environ.get("NNSCOPE", os.path.join(HERE, "..", "build", "nnscope"))
    r = subprocess.run([nnscope, "--no-record", "--lesson", tmp], cwd=HERE, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    os.remove(tmp)
    if r.returncode != 0:
        sys.exit(f"{name}: nnscope failed:\n{r.stdout}")
    os.makedirs(os.path.join(HERE, "golden"), exist_ok=True)
    for m in re.finditer(r"<<golden (\d+)>>\n(.*?)<<end \1>>\n", r.stdout, re.S):
        with open(golden_path(name, int(m.group(1))), "w") as f:
            f.write(m.group(2))
        print(name, "golden", m.group(1))


args = sys.argv[1:]
golden = "--golden" in args
wanted = {a for a in args if a != "--golden"}
for path in sorted(glob.glob(os.path.join(HERE, "[0-9][0-9]_*.py"))):
    base = os.path.basename(path)
    if wanted and base not in wanted:
        continue
    name = base[:-3]
    if golden:
        write_golden(path, name)
        continue
    with open(os.path.join(HERE, name + ".expected"), "w") as f:
        f.write(run_python(path, name))
    print(name, "expected written")
