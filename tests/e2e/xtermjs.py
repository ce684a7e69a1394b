# SPDX-License-Identifier: ISC
"""A third terminal emulator for the end-to-end tests: xterm.js, the
terminal of VS Code, JupyterLab and most web terminals.

Runs peviz on a pty and streams its bytes, live, into xterm.js in a
headless browser (tests/e2e/xtermjs.html), which answers peviz's
queries itself.  The same program with the same keys runs in tmux, and
the two screens are compared cell by cell: text, colours, attributes.
With the image addon on (VS Code's image setting) peviz must pick sixel,
each image must fill the cells it covers to a pixel and a half, and a
resize must leave the labels Ctrl-L draws.

    xtermjs.py PEVIZ XTERM_DIR IMAGE_DIR BROWSER [NAME]

XTERM_DIR and IMAGE_DIR hold the npm packages @xterm/xterm and
@xterm/addon-image.  Prints one line per check and, last,
"test_xtermjs: N passed, M failed".  NAME runs the checks whose name
holds it.  Uses Python's standard library only.
"""
import base64
import fcntl
import http.server
import json
import os
import queue
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
import unicodedata
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
QUIET = 0.3           # output has stopped when nothing came for this long
LIMIT = 10.0          # the longest any one wait may take

KEYS = {'Enter': (b'\r', 'Enter'), 'Esc': (b'\x1b', 'Escape'),
        'Down': (b'\x1bOB', 'Down'), 'Up': (b'\x1bOA', 'Up'),
        'Right': (b'\x1bOC', 'Right'), 'Left': (b'\x1bOD', 'Left')}


def key_bytes(k):
    return KEYS[k][0] if k in KEYS else k.encode()


# ---- the browser and its page ---------------------------------------------

class Quiet(http.server.ThreadingHTTPServer):
    """A server that does not print the browser's requests cut off when
    it is closed."""
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass


class Page:
    """The one xterm.js page: actions go out on /poll, replies come back."""

    def __init__(self, xterm_dir, image_dir, browser):
        self.actions = queue.Queue()
        self.dumps = queue.Queue()
        self.ready = threading.Event()
        self.reply_to = None            # the pty master replies are written to
        self.roots = {'/xterm/': xterm_dir, '/image/': image_dir}
        self.server = Quiet(('127.0.0.1', 0), self.handler())
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.profile = tempfile.mkdtemp(prefix='peviz-xtermjs.')
        url = 'http://127.0.0.1:%d/' % self.server.server_port
        self.browser = subprocess.Popen(
            [browser, '--headless', '--no-sandbox', '--disable-gpu',
             '--disable-quic', '--no-first-run', '--disable-sync',
             '--disable-background-networking', '--disable-component-update',
             '--window-size=1800,1100', '--user-data-dir=' + self.profile, url],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not self.ready.wait(LIMIT * 3):
            self.close()
            raise RuntimeError('the browser did not load the page')

    def handler(page):
        class H(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def send(self, body, kind):
                self.send_response(200)
                self.send_header('Content-Type', kind)
                self.send_header('Content-Length', str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                if self.path == '/':
                    with open(os.path.join(HERE, 'xtermjs.html'), 'rb') as f:
                        return self.send(f.read(), 'text/html')
                if self.path == '/poll':
                    return self.send(json.dumps(page.take()).encode(),
                                     'application/json')
                for root, d in page.roots.items():
                    rel = self.path[len(root):]
                    if self.path.startswith(root) and '..' not in rel:
                        kind = 'text/css' if rel.endswith('.css') else 'text/javascript'
                        with open(os.path.join(d, rel), 'rb') as f:
                            return self.send(f.read(), kind)
                self.send_error(404)

            def do_POST(self):
                body = self.rfile.read(int(self.headers['Content-Length'] or 0))
                if self.path == '/ready':
                    page.ready.set()
                elif self.path == '/dump':
                    page.dumps.put(json.loads(body))
                elif page.reply_to is not None:
                    data = body if self.path == '/reply' else \
                        body.decode().encode('latin-1')
                    try:
                        os.write(page.reply_to, data)
                    except OSError:
                        pass
                self.send(b'', 'text/plain')
        return H

    def take(self):
        out = []
        try:
            out.append(self.actions.get(timeout=1.0))
            while True:
                out.append(self.actions.get_nowait())
        except queue.Empty:
            pass
        return out

    def open(self, cols, rows, image=False, font=15):
        self.actions.put({'op': 'open', 'cols': cols, 'rows': rows,
                          'image': image, 'font': font})

    def resize(self, cols, rows):
        self.actions.put({'op': 'resize', 'cols': cols, 'rows': rows})

    def write(self, data):
        self.actions.put({'op': 'write', 'data': base64.b64encode(data).decode()})

    def dump(self):
        self.actions.put({'op': 'dump'})
        return self.dumps.get(timeout=LIMIT * 3)

    def close(self):
        self.browser.kill()
        self.browser.wait()
        self.server.shutdown()
        shutil.rmtree(self.profile, ignore_errors=True)


# ---- peviz on a pty, shown in the page ------------------------------------

class PtyRun:
    def __init__(self, page, argv, cols, rows, env):
        self.page, self.last = page, time.monotonic()
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack('HHHH', rows, cols, 0, 0))
        self.pid = os.fork()
        if self.pid == 0:
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            for fd in (0, 1, 2):
                os.dup2(slave, fd)
            os.close(master)
            os.execvpe(argv[0], argv, env)
        os.close(slave)
        self.master = master
        page.reply_to = master
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self):
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            self.last = time.monotonic()
            self.page.write(data)

    def quiet(self):
        t0 = time.monotonic()
        while time.monotonic() - self.last < QUIET and time.monotonic() - t0 < LIMIT:
            time.sleep(0.05)

    def key(self, k):
        self.last = time.monotonic()
        os.write(self.master, key_bytes(k))
        self.quiet()

    def resize(self, cols, rows):
        fcntl.ioctl(self.master, termios.TIOCSWINSZ,
                    struct.pack('HHHH', rows, cols, 0, 0))
        os.kill(self.pid, signal.SIGWINCH)
        self.last = time.monotonic()
        self.quiet()

    def close(self):
        self.page.reply_to = None
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)
        os.close(self.master)
        self.reader.join(2)


# ---- the same in tmux -----------------------------------------------------

class TmuxRun:
    def __init__(self, argv, cols, rows, env):
        self.dir = tempfile.mkdtemp(prefix='peviz-xtermjs-tmux.')
        self.sock = os.path.join(self.dir, 'sock')
        conf = os.path.join(HERE, 'tmux.conf')
        self.t = ['tmux', '-S', self.sock, '-f', conf]
        cmd = ['env', '-i'] + ['%s=%s' % kv for kv in env.items()
                               if kv[0] != 'TERM'] + ['TERM=tmux-256color'] + argv
        subprocess.run(self.t + ['new-session', '-d', '-s', 't', '-x', str(cols),
                                 '-y', str(rows), ' '.join(map(quote, cmd))],
                       check=True)

    def capture(self):
        return subprocess.run(self.t + ['capture-pane', '-p', '-e', '-N', '-t', 't'],
                              capture_output=True).stdout.decode('utf-8', 'replace')

    def quiet(self):
        t0, last, seen = time.monotonic(), None, time.monotonic()
        while time.monotonic() - t0 < LIMIT:
            now = self.capture()
            if now != last:
                last, seen = now, time.monotonic()
            elif time.monotonic() - seen >= QUIET:
                break
            time.sleep(0.1)
        return last

    def key(self, k):
        if k in KEYS:
            subprocess.run(self.t + ['send-keys', '-t', 't', KEYS[k][1]])
        else:
            subprocess.run(self.t + ['send-keys', '-t', 't', '-l', '--', k])
        return self.quiet()

    def cursor(self):
        out = subprocess.run(self.t + ['display-message', '-p', '-t', 't',
                                       '#{cursor_x} #{cursor_y}'],
                             capture_output=True, text=True).stdout.split()
        return [int(v) for v in out]

    def close(self):
        subprocess.run(self.t + ['kill-server'], stderr=subprocess.DEVNULL)
        shutil.rmtree(self.dir, ignore_errors=True)


def quote(s):
    return "'" + s.replace("'", "'\\''") + "'" if re.search(r"[^\w@%+=:,./-]", s) else s


# ---- two screens as cells -------------------------------------------------

BLANK = (' ', 'd', 'd', '')


def xterm_cells(d):
    """[[(text, fg, bg, attrs)]] from the page's dump; a wide cell's tail
    is dropped, as tmux prints a wide character once."""
    rows = []
    for line in d['cells']:
        rows.append([(c[0] or ' ', c[2], c[3], c[4]) for c in line if c[1] != 0])
    return rows


SGR = re.compile(r'\x1b\[([0-9;:]*)m')


def sgr(state, params):
    fg, bg, at = state
    p = [int(x) if x else 0 for x in re.split('[;:]', params)] if params else [0]
    i = 0
    while i < len(p):
        n = p[i]
        if n == 0:
            fg, bg, at = 'd', 'd', ''
        elif n in (38, 48) and i + 1 < len(p):
            if p[i + 1] == 5:
                v, i = str(p[i + 2]), i + 2
            else:
                v, i = '#%02x%02x%02x' % tuple(p[i + 2:i + 5]), i + 4
            fg, bg = (v, bg) if n == 38 else (fg, v)
        elif 30 <= n <= 37 or 90 <= n <= 97:
            fg = str(n - 30 if n < 90 else n - 82)
        elif 40 <= n <= 47 or 100 <= n <= 107:
            bg = str(n - 40 if n < 100 else n - 92)
        elif n == 39:
            fg = 'd'
        elif n == 49:
            bg = 'd'
        elif n in (1, 2, 3, 4, 7):
            at = ''.join(sorted(set(at + 'bdiur'[[1, 2, 3, 4, 7].index(n)]),
                                key='bdiur'.index))
        elif n in (22, 23, 24, 27):
            drop = {22: 'bd', 23: 'i', 24: 'u', 27: 'r'}[n]
            at = ''.join(c for c in at if c not in drop)
        i += 1
    return fg, bg, at


def tmux_cells(text, rows):
    out, state = [], ('d', 'd', '')
    for line in text.split('\n')[:rows]:
        cells, pos = [], 0
        for m in SGR.finditer(line + '\x1b[m'):
            for ch in line[pos:m.start()]:
                if unicodedata.combining(ch) and cells:
                    cells[-1] = (cells[-1][0] + ch,) + cells[-1][1:]
                    continue
                cells.append((ch,) + state)
            state = sgr(state, m.group(1)) if m.end() <= len(line) else state
            pos = m.end()
        out.append(cells)
    return out


def row_text(cells):
    return ''.join(c[0] for c in cells).rstrip()


def differences(a, b, rows):
    """Rows where the two screens differ, as (row, what, xterm.js, tmux)."""
    diffs = []
    for y in range(rows):
        ra = a[y] if y < len(a) else []
        rb = b[y] if y < len(b) else []
        if row_text(ra) != row_text(rb):
            diffs.append((y, 'text', row_text(ra), row_text(rb)))
            continue
        for x in range(max(len(ra), len(rb))):
            ca = ra[x] if x < len(ra) else BLANK
            cb = rb[x] if x < len(rb) else BLANK
            if ca[1:] != cb[1:] and not (ca[0] == cb[0] == ' ' and ca[2] == cb[2]
                                         and 'r' not in ca[3] + cb[3]):
                diffs.append((y, 'cell %d %r' % (x, ca[0]), ca[1:], cb[1:]))
                break
    return diffs


# ---- scenarios --------------------------------------------------------------

def views(peviz):
    out = subprocess.run([peviz, '--help'], capture_output=True, text=True).stdout
    m = re.search(r'^ *--view NAME +(?:.*: )?(.*?)(?: \(default [^)]*\))?$',
                  out, re.M)
    return m.group(1).replace(',', ' ').replace(' or ', ' ').split()


def scenarios(peviz):
    """(name, args, size, env additions, steps): a step is a list of keys
    after which both screens are compared."""
    s = []
    for size in ((80, 24), (160, 48)):
        for v in views(peviz):
            s.append(('%s %dx%d' % (v, *size), ['--view', v], size, {},
                      [[], ['?']]))
    s.append(('prompt 80x24', ['--view', 'attention'], (80, 24), {},
              [[':'], ['d', ' ', '6']]))
    s.append(('tour 80x24', [], (80, 24), {},
              [['T']] + [['Enter']] * 6))
    s.append(('zh tour 80x24', ['--lang', 'zh'], (80, 24), {},
              [['T'], ['Enter'], ['Enter']]))
    s.append(('LANG=C 80x24', [], (80, 24), {'LANG': 'C', 'LC_ALL': ''},
              [[], ['?']]))
    return s


def environment(home, more):
    env = {'PATH': os.environ.get('PATH', '/usr/bin:/bin'), 'HOME': home,
           'TERM': 'xterm-256color', 'LC_ALL': 'C.UTF-8'}
    env.update(more)
    return {k: v for k, v in env.items() if v}


class Report:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, name, diffs):
        if not diffs:
            self.passed += 1
            print('  ok   %s' % name)
            return
        self.failed += 1
        print('  FAIL %s: %d rows differ' % (name, len(diffs)))
        for y, what, a, b in diffs[:4]:
            print('       row %d %s\n         got  %r\n         want %r'
                  % (y, what, a, b))


def start_text(page, run):
    """Waits for the status line in xterm.js, then for quiet."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < LIMIT:
        run.quiet()
        d = page.dump()
        if any('d_model=' in row_text(r) for r in xterm_cells(d)):
            return
        time.sleep(0.1)


def run_scenario(page, peviz, home, report, sc):
    name, args, (cols, rows), more, steps = sc
    env = environment(home, more)
    argv = [peviz] + args
    tmux = TmuxRun(argv, cols, rows, env)
    page.open(cols, rows)
    pty = PtyRun(page, argv, cols, rows, env)
    try:
        start_text(page, pty)
        tmux.quiet()
        for i, keys in enumerate(steps):
            for k in keys:
                t = threading.Thread(target=tmux.key, args=(k,))
                t.start()
                pty.key(k)
                t.join()
            d = page.dump()
            want = tmux_cells(tmux.quiet(), rows)
            label = name + (' after %s' % '+'.join(keys) if keys else '') + \
                (' (step %d)' % i if len(steps) > 1 else '')
            diffs = differences(xterm_cells(d), want, rows)
            # a cursor past the last column waits to wrap: it stands on it
            at = [min(d['cursor'][0], cols - 1), d['cursor'][1]]
            tat = tmux.cursor()
            tat[0] = min(tat[0], cols - 1)
            if not diffs and at != tat:
                diffs = [(at[1], 'cursor', at, tat)]
            report.check(label + ': xterm.js shows what tmux shows', diffs)
    finally:
        pty.close()
        tmux.close()


# ---- images (xterm.js's image addon on, as VS Code's image setting) --------

def image_fits(im, cell):
    """An image fills the cells it touches, to a pixel and a half: not
    short of them (a stripe of the text layer), not over into the next."""
    want_w = (im['x1'] - im['x0'] + 1) * cell[0]
    want_h = (im['y1'] - im['y0'] + 1) * cell[1]
    return abs(im['w'] - want_w) <= 1.5 and abs(im['h'] - want_h) <= 1.5


def check_images(report, name, d):
    bad = [im for im in d['images'] if not image_fits(im, d['cell'])]
    report.check(name + ': each image fills its cells (cell %.3fx%.3f px)'
                 % tuple(d['cell']),
                 [(im['y0'], 'image at %d,%d' % (im['x0'], im['y0']),
                   '%dx%d px' % (im['w'], im['h']),
                   '%.1fx%.1f px' % ((im['x1'] - im['x0'] + 1) * d['cell'][0],
                                     (im['y1'] - im['y0'] + 1) * d['cell'][1]))
                  for im in bad])


def png_pixels(data):
    """(w, h, rows of (r, g, b)) of an 8-bit RGB or RGBA PNG."""
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    pos, idat, w = 8, b'', 0
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
            assert depth == 8 and ctype in (2, 6), 'not 8-bit RGB(A)'
            bpp = 3 if ctype == 2 else 4
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    raw, stride, prev, rows = zlib.decompress(idat), w * bpp, None, []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        up = prev or bytearray(stride)
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            c = up[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + (0, a, up[i], (a + up[i]) // 2,
                                  paeth(a, up[i], c))[f]) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def same_image(im, snap):
    """The share of the image's cells whose centre has the colour of the
    same cell's centre in the snapshot (8x16 pixels a cell), to 40 in
    each channel: sixel's palette and the data's edges inside a cell
    take the rest."""
    w, h, px = png_pixels(base64.b64decode(im['png'].split(',', 1)[1]))
    _, _, ref = snap
    cols, rows = im['x1'] - im['x0'] + 1, im['y1'] - im['y0'] + 1
    good = 0
    for y in range(rows):
        for x in range(cols):
            a = px[int((y + 0.5) * h / rows)][int((x + 0.5) * w / cols)]
            b = ref[(im['y0'] + y) * 16 + 8][(im['x0'] + x) * 8 + 4]
            good += max(abs(p - q) for p, q in zip(a, b)) <= 40
    return good / (cols * rows)


def text_rows(d):
    """The rows no image touches, as text."""
    covered = set()
    for im in d['images']:
        covered.update(range(im['y0'], im['y1'] + 1))
    return [(y, row_text(r)) for y, r in enumerate(xterm_cells(d)) if y not in covered]


def check_pixels(report, name, d, peviz, args):
    """The images against --snapshot --format png of the same frame (8x16
    pixels a cell): only for a view whose layout in cells is the same
    whatever the shape of a cell in pixels."""
    snap = png_pixels(subprocess.run([peviz, '--snapshot', '--format', 'png',
                                      '--size', '80x24'] + args,
                                     capture_output=True, check=True).stdout)
    shares = [same_image(im, snap) for im in d['images']]
    report.check(name + ': the image shows what --snapshot --format png does',
                 [(im['y0'], 'image at %d,%d' % (im['x0'], im['y0']),
                   '%.0f%% of its cells' % (100 * sh), 'at least 90%')
                  for im, sh in zip(d['images'], shares) if sh < 0.9])


def run_images(page, peviz, home, report, view, font):
    env = environment(home, {})
    args = ['--view', view, '-d', '8', '-n', '16']
    page.open(80, 24, image=True, font=font)
    pty = PtyRun(page, [peviz] + args, 80, 24, env)
    try:
        start_text(page, pty)
        d = page.dump()
        name = '%s in sixel, font %d' % (view, font)
        status = row_text(xterm_cells(d)[-1])
        report.check(name + ': picks sixel', [] if 'sixel' in status and d['images']
                     else [(23, 'status', status, 'graphics: sixel')])
        check_images(report, name + ' 80x24', d)
        if view == 'heatmap':   # its layout does not follow the cell's shape
            check_pixels(report, name + ' 80x24', d, peviz, args)
        page.resize(100, 30)
        pty.resize(100, 30)
        grown = page.dump()
        check_images(report, name + ' grown to 100x30', grown)
        pty.key('\x0c')
        redrawn = page.dump()
        a, b = text_rows(grown), text_rows(redrawn)
        report.check(name + ' grown to 100x30: the labels Ctrl-L draws',
                     [(y, 'text', t, u) for (y, t), (_, u) in zip(a, b) if t != u])
    finally:
        pty.close()


def main():
    peviz, xterm_dir, image_dir, browser = sys.argv[1:5]
    only = sys.argv[5] if len(sys.argv) > 5 else ''
    home = tempfile.mkdtemp(prefix='peviz-xtermjs-home.')
    page = Page(xterm_dir, image_dir, browser)
    report = Report()
    try:
        for sc in scenarios(os.path.abspath(peviz)):
            if only in sc[0]:
                run_scenario(page, os.path.abspath(peviz), home, report, sc)
        for view, font in (('heatmap', 14), ('clocks', 15), ('attention', 13)):
            if only in view + ' sixel':
                run_images(page, os.path.abspath(peviz), home, report, view, font)
    finally:
        page.close()
        shutil.rmtree(home, ignore_errors=True)
    print("test_xtermjs: %d passed, %d failed" % (report.passed, report.failed))
    return 1 if report.failed else 0


if __name__ == '__main__':
    sys.exit(main())
