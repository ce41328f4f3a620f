#!/usr/bin/env python3
"""Compares the machine code (SASS) of two builds kernel by kernel.

Usage: sass_diff.py BEFORE AFTER
BEFORE and AFTER are object files, executables or saved `cuobjdump -sass` text. Kernels are
matched by their demangled names with namespaces and the probe parameter left out (a kernel that
gained `class Probe = NoProbe` is the same kernel), and their instructions are compared with
addresses and encodings left out. Kernels that take a recording probe (the lab's stepped forms) are
left out of AFTER. A kernel of BEFORE whose name AFTER lacks is compared with the one kernel of
AFTER, if there is one, that has its function name (and, among several, its parameters) and no
counterpart in BEFORE (a kernel that moved into a namespace or became a template). Prints one line per kernel (same / DIFFERENT / only
in one) and exits 1 when a kernel of BEFORE differs or is missing in AFTER.

Needs cuobjdump and nvdisasm (the CUDA toolkit's, or PyPI's nvidia-cuda-cuobjdump and
nvidia-cuda-nvdisasm) on PATH for object files, and c++filt.
"""
import re
import subprocess
import sys


def sass_text(path):
    with open(path, 'rb') as f:
        head = f.read(4)
    if head == b'\x7fELF':
        return subprocess.run(['cuobjdump', '-sass', path], check=True, capture_output=True, text=True).stdout
    with open(path) as f:
        return f.read()


def demangle(names):
    out = subprocess.run(['c++filt'], input='\n'.join(names), check=True, capture_output=True, text=True).stdout
    return out.splitlines()


def normal_name(name):
    name = re.sub(r',?\s*primlab::NoProbe', '', name)                   # the probe, template and argument
    name = re.sub(r'\(anonymous namespace\)::', '', name)
    name = re.sub(r'\bprimlab::(lab|teaching|detail)::', '', name)
    name = name.replace('<>', '').replace('> >', '>>')               # c++filt spaces `> >` only where they close together
    return re.sub(r'\s+', ' ', name).strip()


def kernels(text):
    """{normalised name: [instructions]} of every function of every architecture in the dump."""
    functions, order, current, arch = {}, [], None, ''
    for line in text.splitlines():
        m = re.match(r'\s*arch = (\S+)', line)
        if m:
            arch = m.group(1)
        m = re.match(r'\s*Function : (\S+)', line)
        if m:
            current = (arch, m.group(1))
            functions[current] = []
            order.append(current)
            continue
        m = re.match(r'\s*/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;?\s*/\*', line)
        if current and m:
            functions[current].append(m.group(1))
    names = demangle([n for _, n in order])
    return {f'{a} {normal_name(d)}': functions[(a, n)] for (a, n), d in zip(order, names)}


def function_name(name):
    """'sm_90 void ns::k<int, true>(int*)' -> 'sm_90 k'."""
    arch, rest = name.split(' ', 1)
    rest = re.sub(r'^void ', '', rest)
    rest = re.split(r'[<(]', rest, 1)[0]
    return f'{arch} {rest.split("::")[-1]}'


def renames(before, after):
    """{name in BEFORE: name in AFTER} for the kernels that only their function name matches."""
    lost = [b for b in before if b not in after]
    new = [a for a in after if a not in before]
    pairs = {}
    params = lambda name: name[name.index('('):] if '(' in name else ''
    for b in lost:
        same = [a for a in new if function_name(a) == function_name(b)]
        if len(same) > 1:
            same = [a for a in same if params(a) == params(b)]
        if len(same) == 1:
            pairs[b] = same[0]
    return pairs


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    before = kernels(sass_text(sys.argv[1]))
    after = {k: v for k, v in kernels(sass_text(sys.argv[2])).items() if not re.search(r'\w+Probe\b', k)}
    moved = renames(before, after)
    bad = 0
    for name in sorted(set(before) | set(after) - set(moved.values())):
        other = moved.get(name, name)
        also = f' (now {other.split(" ", 1)[1]})' if other != name else ''
        if other not in after:
            print(f'only before  {name}')
            bad += 1
        elif name not in before:
            print(f'only after   {name}')
        elif before[name] == after[other]:
            print(f'same         {name} ({len(before[name])} instructions){also}')
        else:
            print(f'DIFFERENT    {name} ({len(before[name])} -> {len(after[other])} instructions){also}')
            bad += 1
    print(f'{len(before)} kernels before, {len(after)} after, {bad} differ or are missing')
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
