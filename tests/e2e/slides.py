#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""The slide deck in a real browser (headless chromium), in English and
Chinese:
- its previous/next links, the browser's Back and the arrow keys each
  show the step the address names (hashchange);
- the zh deck's links are not the English deck's words;
- each caption is on the page once: not in the images, which carry no
  key hints of the terminal either (the tour's panel hint and the status
  line's help word, read off a terminal frame of the same tour);
- the NoPE step, scaled by the browser to a width that is no multiple of
  its pixels, is one flat colour: no hairline seams between cell rows
  (the screenshot decoded here, zlib and the PNG filters only).

    slides.py PEVIZ BROWSER
"""
import json, os, re, shutil, struct, subprocess, sys, tempfile, zlib
import urllib.parse
import xml.etree.ElementTree as ET

PEVIZ, BROWSER = (sys.argv + ['', ''])[1:3]
HERE = os.path.dirname(os.path.abspath(__file__))
SIZE = '100x30'
passed = failed = 0


def check(name, ok, why=''):
    global passed, failed
    if ok:
        passed += 1
        print('ok   ' + name)
    else:
        failed += 1
        print('FAIL ' + name + (': ' + why if why else ''))


def browser(args, tmp):
    prof = tempfile.mkdtemp(dir=tmp)
    return subprocess.run(
        [BROWSER, '--headless', '--no-sandbox', '--disable-gpu',
         '--no-first-run', '--disable-sync', '--hide-scrollbars',
         '--disable-background-networking', '--disable-component-update',
         '--user-data-dir=' + prof] + args,
        capture_output=True, text=True, timeout=120).stdout


def png_rows(path):
    """The PNG's rows as lists of (r, g, b): 8-bit RGB or RGBA only."""
    data = open(path, 'rb').read()
    pos, idat, w = 8, b'', 0
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
            assert depth == 8 and ctype in (2, 6), (depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], None
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        up = prev or bytearray(stride)
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = up[i], up[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        prev = line
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
    return rows


def terminal_hints(lang):
    """The tour's panel hint and the status line's help word, as the
    terminal shows them at step 1."""
    out = subprocess.run([PEVIZ, '--tour', '--lang', lang, '--snapshot',
                          '--size', SIZE], capture_output=True,
                         text=True).stdout.rstrip('\n').split('\n')
    return out[-2].strip(), re.split(r'\s{2,}', out[-1].strip())[-1]


def svg_texts(path):
    root = ET.parse(path).getroot()
    return [''.join(t.itertext()) for t in root.iter() if t.tag.endswith('text')]


def deck(lang, tmp):
    d = os.path.join(tmp, 'slides-' + lang)
    subprocess.run([PEVIZ, '--tour', '--lang', lang, '--slides', d,
                    '--size', SIZE], capture_output=True, check=True)
    return d


def paging(lang, d, tmp):
    url = 'file://' + os.path.join(HERE, 'slides.html') + '?deck=' + \
        urllib.parse.quote('file://' + os.path.join(d, 'index.html'), safe='')
    dom = browser(['--allow-file-access-from-files',
                   '--virtual-time-budget=20000', '--dump-dom', url], tmp)
    m = re.search(r'<pre id="out">(.*?)</pre>', dom, re.S)
    log = json.loads(m.group(1).replace('&quot;', '"')) if m and m.group(1) else []
    want = [('load', 's1'), ('next', 's2'), ('next', 's3'), ('previous', 's2'),
            ('back', 's3'), ('right', 's4'), ('left', 's3'), ('back', 's4')]
    got = [(e['after'], e['shown']) for e in log]
    check('%s: links, Back and arrow keys show the step the address names'
          % lang, got == want, 'got %s' % got)
    return [e['nav'] for e in log]


def images(lang, d):
    hint, helpw = terminal_hints(lang)
    check('%s: the terminal frame has a panel hint and a help word' % lang,
          len(hint) > 8 and 0 < len(helpw) < 12, '%r %r' % (hint, helpw))
    steps = sorted(f for f in os.listdir(d) if f.endswith('.svg'))
    twice, hinted = [], []
    for name in steps:
        txt = open(os.path.join(d, name[:-3] + 'txt'), encoding='utf-8').read()
        num = int(name[5:7])
        screen, _, rest = txt.partition('\n%d/' % num)
        caption = rest.split('\n\n', 1)[1]
        start = ' '.join(caption.split()[:3]) if lang == 'en' else caption[:12]
        texts = svg_texts(os.path.join(d, name))
        flat = ' '.join(screen.split())
        if start in flat or any(start in t for t in texts):
            twice.append(num)
        if hint in screen or helpw in screen or \
                any(hint in t or helpw in t for t in texts):
            hinted.append(num)
    check('%s: no caption inside the images (%d steps)' % (lang, len(steps)),
          not twice, 'steps %s' % twice)
    check('%s: no terminal key hints inside the images' % lang,
          not hinted, 'steps %s' % hinted)


def matrix_box(rows, want):
    """The matrix: the widest run of its colour on a row, and the rows
    whose middle pixel has the colour, contiguous around that row."""
    best = (0, 0, 0)
    for y, r in enumerate(rows):
        x = 0
        while x < len(r):
            e = x
            while e < len(r) and r[e] == want:
                e += 1
            if e - x > best[2] - best[1]:
                best = (y, x, e)
            x = e + 1
    yb, x0, x1 = best[0], best[1], best[2] - 1
    mid = (x0 + x1) // 2
    y0 = y1 = yb
    while y0 > 0 and rows[y0 - 1][mid] == want:
        y0 -= 1
    while y1 + 1 < len(rows) and rows[y1 + 1][mid] == want:
        y1 += 1
    return x0, x1, y0, y1


def flat_nope(d, tmp):
    """Step 1 (NoPE: S = 0 everywhere) at widths the browser scales the
    image down to (a seam between cell rows shows there)."""
    shot = os.path.join(tmp, 'nope.png')
    svg = os.path.join(d, 'step-01.svg')
    fill = [r.get('fill') for r in ET.parse(svg).getroot()
            if r.tag.endswith('rect')]
    colour = max(set(fill[1:]), key=fill.count)     # the matrix's cells
    want = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    for width in (900, 1000, 1250):
        browser(['--window-size=%d,1000' % width, '--screenshot=' + shot,
                 'file://' + os.path.join(d, 'index.html') + '#s1'], tmp)
        rows = png_rows(shot)
        x0, x1, y0, y1 = matrix_box(rows, want)
        # leave out the top cell row (the cursor's mark) and a pixel of rim
        top = y0 + (y1 - y0) // 6
        odd = sum(1 for y in range(top, y1 - 1)
                  for x in range(x0 + 2, x1 - 1) if rows[y][x] != want)
        check('en: the NoPE matrix at window width %d is one flat colour '
              '(%dx%d px)' % (width, x1 - x0 + 1, y1 - y0 + 1),
              odd == 0 and y1 - top > 100 and x1 - x0 > 100,
              '%d other pixels' % odd)


def main():
    tmp = tempfile.mkdtemp(prefix='peviz-slides.')
    try:
        nav = {}
        for lang in ('en', 'zh'):
            d = deck(lang, tmp)
            nav[lang] = paging(lang, d, tmp)
            images(lang, d)
        words = lambda s: set(re.findall(r'[A-Za-z]{3,}', s))
        en, zh = words(' '.join(nav['en'])), words(' '.join(nav['zh']))
        check('zh: the links speak Chinese (no word of the English deck)',
              bool(en) and not (en & zh) and len(nav['zh']) == 8,
              'shared %s' % sorted(en & zh))
        flat_nope(os.path.join(tmp, 'slides-en'), tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print('test_slides: %d passed, %d failed' % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
