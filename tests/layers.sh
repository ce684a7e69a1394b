#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The structure of the program: the modules (x.c with x.h), who imports
# whom, no circle between them, and the floors they stand on.
#
# A module is x.c with its x.h (src/lib/x.c with include/peviz/x.h).  A
# .c file without a header of its own that defines what a paired header
# declares is part of that module (pe_cells.c of pe, app_table.c of app);
# a header without a .c that one module defines is part of it (tty.h of
# term, view.h of views); a header that several files define
# (tables_formats.h) is a module of its own.  Module A imports module B when
# a file of A #includes a file of B, or uses (names) a function or
# variable that a header it includes declares and B defines.  Names
# built by token pasting in a macro are not seen.
#
# It fails on a circle between modules (printed one import at a time,
# with the line that makes it), and when more than UP_MAX imports run
# from a lower floor to a higher one (each listed).
#
#   bash tests/layers.sh            check
#   bash tests/layers.sh --graph    print every module's floor and imports
#   bash tests/layers.sh --modules  print each file's module and floor
#
# Ends with "layers: N passed, M failed"; exits non-zero on any failure.
set -u
cd "$(dirname "$0")/.."
UP_MAX=3

# The floors, lowest first: "FLOOR: module patterns".  A module stands
# on the first floor with a pattern that matches its name (src/ and the
# extension left off; the library's modules are lib/NAME).
FLOORS='
library:  lib/*
base:     canvas keys glyph font charset sha256 text geom axis colormap errline
          termcaps termreply sockfile raster lineart png_out gfx gfx_probe term plain
model:    params plans plot config config_mask gguf_config gguf_mask mpos_config
          tour_data state_field settings views/*_state
app:      app
caption:  caption
views:    views views/*
frame:    frame frame_image frame_export snapshot record gfx_live
tour:     tour slides tour_check
follow:   follow_proto follow_files follow
cli:      cli
loop:     loop export plain_line userconf
main:     main
docs:     docgen/docgen docgen/docgen_complete
docgen:   docgen/docgen_fill
docmain:  docgen/docgen_main
'

# Modules that are parts of another: "PART OWNER  why" (the why may go
# on over lines that start with a blank).
PARTS='
mpos_cli cli        the command line'"'"'s multi-axis position options
views    app        the view interface (view.h) and the list of views: the
                    app dispatches keys and commands through it, each file
                    under views/ implements it
view      app       view.h, which views.c (the list) and view_mark.c (the
view_mark app       inspected cell'"'"'s mark, drawn by every view) both define
areas    app        where things go on the screen (areas.h): a view lays out
                    for the size the app'"'"'s state leaves it
follow_impl    follow    follow mode in three files: the driver (follow.c),
follow_teacher follow    the server and the follower'"'"'s client, which share
follow_student follow    follow_impl.h and follow.h'"'"'s limits
'

# Circles tolerated for now, one "allow MODULE..." line each (the
# modules of the circle, in any order).  Each is a debt: remove the line
# when the circle is gone (the check then fails until it is removed).
ALLOW='
'

command -v python3 >/dev/null 2>&1 || {
    echo "layers: python3 is needed"
    echo "layers: 0 passed, 1 failed"
    exit 1
}

FLOORS=$FLOORS PARTS=$PARTS ALLOW=$ALLOW UP_MAX=$UP_MAX exec python3 - "$@" <<'PY'
import glob, os, re, sys

ID = re.compile(r'[A-Za-z_]\w*')
INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def strip(text):
    """The code without comments, strings, characters or # lines."""
    text = re.sub(r'/\*.*?\*/|//[^\n]*|"(\\.|[^"\\\n])*"|\'(\\.|[^\'\\\n])*\'',
                  lambda m: ' ' if m.group(0)[0] == '/' else '""',
                  text, flags=re.S)
    out, cont = [], False
    for ln in text.split('\n'):
        pre = cont or ln.lstrip().startswith('#')
        cont = pre and ln.rstrip().endswith('\\')
        out.append('' if pre else ln)
    return '\n'.join(out)


def statements(code):
    """Top-level statements, each body shown as {}."""
    out, cur, depth = [], [], 0
    for ch in code:
        if depth == 0:
            if ch == ';':
                out.append(''.join(cur))
                cur = []
            elif ch == '{':
                depth = 1
                cur.append('{}')
            else:
                cur.append(ch)
        elif ch == '{':
            depth += 1
        elif ch == '}':
            depth -= 1
            head = ''.join(cur)[:-2]
            if depth == 0 and '(' in head and '=' not in head \
                    and not head.strip().startswith('typedef'):
                out.append(''.join(cur))        # a function's definition
                cur = []
    return [s.strip() for s in out if s.strip()]


def last_id(text):
    ids = ID.findall(re.sub(r'\[[^\]]*\]', '', text))
    return ids[-1] if ids else None


def names(path):
    """(defined, declared): the external names a file defines and declares."""
    defs, decls = set(), set()
    for st in statements(strip(open(path, errors='replace').read())):
        st = re.sub(r'__attribute__\s*\(\(.*?\)\)', ' ', st)
        head = st.split('{}')[0]
        words = head.split('(')[0].split('=')[0].split()
        if not words or words[0] == 'typedef':
            continue
        if words[0] in ('struct', 'enum', 'union') and '(' not in head \
                and '=' not in head and ('{}' in st or len(words) == 2):
            continue                # a type, or its forward declaration
        is_def = '{}' in st or '=' in head
        if '(' in head and '=' not in head.split('(')[0]:
            before, after = head.split('(', 1)
            found = [last_id(after.split(')')[0])] if after.lstrip().startswith('*') \
                else [last_id(before)]
        else:
            found = [last_id(p) for p in head.split('=')[0].split(',')]
        found = [n for n in found if n]
        if 'static' in words:
            if path.endswith('.h') and is_def:   # static inline in a header
                defs.update(found)
                decls.update(found)
            continue
        (defs if is_def else decls).update(found)
        if is_def and path.endswith('.h'):
            decls.update(found)
    return defs, decls


def own_name(path):
    if path.startswith('include/peviz/'):
        return 'lib/' + os.path.basename(path)[:-2]
    return path[len('src/'):-2]


def resolve(frm, inc):
    for d in (os.path.dirname(frm), 'include', 'src'):
        p = os.path.normpath(os.path.join(d, inc))
        if os.path.exists(p):
            return p
    return None


def made_by_build(inc):
    """What a header the build makes includes: view_headers.h is one
    views/NAME_state.h for each VIEW_LIST line of src/view.h with
    settings (the Makefile's rule)."""
    if inc != 'view_headers.h':
        return None
    lines = re.findall(r'^\s*VIEW\([A-Z0-9_]+,\s*([a-z0-9_]+),\s*struct (\w+)',
                       open('src/view.h').read(), re.M)
    return [f'src/views/{n}_state.h' for n, t in lines if t != 'view_none']


files = sorted(glob.glob('src/**/*.[ch]', recursive=True) +
               glob.glob('include/peviz/*.h'))
info, unseen = {}, []
for f in files:
    text = open(f, errors='replace').read()
    d, dc = names(f)
    incs = []
    for i in INC.findall(text):
        p = resolve(f, i)
        made = made_by_build(i)
        if p:
            incs.append(p)
        elif made is not None:
            incs.extend(h for h in made if os.path.exists(h))
        else:               # a header the build makes: its imports are unseen
            unseen.append(f'{f} includes {i}')
    info[f] = dict(defs=d, decls=dc, incs=incs, toks=set(ID.findall(strip(text))))

# the modules
parts = {}
for ln in os.environ['PARTS'].split('\n'):
    w = ln.split()
    if len(w) >= 2 and not ln[0].isspace():     # not a comment's next line
        parts[w[0]] = w[1]
by_name = {}
for f in files:
    by_name.setdefault(own_name(f), []).append(f)
mod = {}
for n, fs in by_name.items():
    if any(f.endswith('.c') for f in fs) and any(f.endswith('.h') for f in fs):
        for f in fs:
            mod[f] = n
for f in files:
    if f in mod:
        continue
    if f.endswith('.c'):
        best, score = None, 0
        for h in files:
            k = len(info[f]['defs'] & info[h]['decls']) if h.endswith('.h') else 0
            if k > score:
                best, score = h, k
        mod[f] = mod.get(best, own_name(f))
for h in files:
    if h not in mod:
        owners = {mod[f] for f in files
                  if f.endswith('.c') and info[f]['defs'] & info[h]['decls']}
        mod[h] = owners.pop() if len(owners) == 1 else own_name(h)
for f in files:
    mod[f] = parts.get(mod[f], mod[f])

provider = {}
for f in files:
    for n in info[f]['defs']:
        provider.setdefault(n, set()).add(mod[f])
modules = sorted(set(mod.values()))
edges = {m: {} for m in modules}        # edges[a][b] = [why, ...]
for f in files:
    m = mod[f]
    for h in info[f]['incs']:
        if mod[h] != m:
            edges[m].setdefault(mod[h], []).append(f'{f} includes {h}')
        for n in sorted(info[h]['decls'] & info[f]['toks']):
            for p in sorted(provider.get(n, ())):
                if p != m:
                    edges[m].setdefault(p, []).append(f'{f} uses {n} ({h})')

# the floors
floors, floor_of = [], {}
for ln in re.sub(r'\n\s+', ' ', os.environ['FLOORS'].strip()).split('\n'):
    name, pats = ln.split(':', 1)
    floors.append((name.strip(), pats.split()))
for m in modules:
    for i, (name, pats) in enumerate(floors):
        if any(re.fullmatch(re.escape(p).replace(r'\*', '.*'), m) for p in pats):
            floor_of[m] = i
            break

passed = failed = 0


def result(ok, text):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print('FAIL: ' + text)


if sys.argv[1:] == ['--modules']:
    for f in files:
        fl = floors[floor_of[mod[f]]][0] if mod[f] in floor_of else '?'
        print(f, mod[f], floor_of.get(mod[f], -1), fl)
    sys.exit(0)
if sys.argv[1:] == ['--graph']:
    for m in sorted(modules, key=lambda m: (floor_of.get(m, -1), m)):
        fl = floors[floor_of[m]][0] if m in floor_of else '?'
        print(f'{fl:8} {m:24} -> ' + ' '.join(sorted(edges[m])))
    sys.exit(0)

# every module on a floor
nofloor = [m for m in modules if m not in floor_of]
result(not nofloor, 'modules on no floor (add them to FLOORS): ' + ' '.join(nofloor))

# circles: the strongly connected parts of the graph (Tarjan)
index, low, stack, on, parts_found = {}, {}, [], set(), []


def strong(v):
    index[v] = low[v] = len(index)
    stack.append(v)
    on.add(v)
    for w in sorted(edges[v]):
        if w not in index:
            strong(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            parts_found.append(sorted(comp))


sys.setrecursionlimit(10000)
for v in modules:
    if v not in index:
        strong(v)


def circle(comp):
    """The shortest circle through comp's first module."""
    start, inside = comp[0], set(comp)
    prev, todo = {start: None}, [start]
    while todo:
        nxt = []
        for v in todo:
            for w in sorted(edges[v]):
                if w == start and v != start:
                    path = [v]
                    while prev[path[-1]] is not None:
                        path.append(prev[path[-1]])
                    return [start] + path[::-1][1:] + [start] if len(path) > 1 else [start, v, start]
                if w in inside and w not in prev:
                    prev[w] = v
                    nxt.append(w)
        todo = nxt
    return comp


allowed = [sorted(ln.split()[1:]) for ln in os.environ['ALLOW'].strip().split('\n')
           if ln.split()[:1] == ['allow']]
for comp in parts_found:
    path = circle(comp)
    lines = [f'circle: {" -> ".join(path)}  (all of: {" ".join(comp)})']
    for a, b in zip(path, path[1:]):
        lines.append(f'    {a} -> {b}: {edges[a][b][0]}')
    if comp in allowed:
        print('allowed for now, ' + '\n'.join(lines))
        continue
    result(False, '\n'.join(lines))
for a in allowed:
    result(a in parts_found, 'allow line for a circle that is gone: ' + ' '.join(a))
if not parts_found:
    result(True, '')

# imports that run up
up = [(a, b) for a in modules for b in edges[a]
      if a in floor_of and b in floor_of and floor_of[b] > floor_of[a]]
for a, b in up:
    print(f'up: {a} ({floors[floor_of[a]][0]}) -> {b} ({floors[floor_of[b]][0]}): {edges[a][b][0]}')
result(len(up) <= int(os.environ['UP_MAX']),
       f'{len(up)} imports run up a floor, at most {os.environ["UP_MAX"]}')
for u in unseen:
    print(f'not followed: {u} (not under src/ or include/: the build makes it)')
print(f'layers: {passed} passed, {failed} failed')
sys.exit(1 if failed else 0)
PY
