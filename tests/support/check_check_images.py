#!/usr/bin/env python3
"""Tests check_images.py on pictures written here with known content: it must pass real images
(palette, RGB, every PNG scanline filter, PPM) with the exact colour and ink figures, and fail
blank, too small, corrupt, truncated and missing ones; and check_pictures.sh's verdicts on
commands that write a picture, write none, fail, or use a format it cannot decode.

    check_check_images.py PATH/TO/check_images.py PATH/TO/check_pictures.sh
"""
import os
import struct
import subprocess
import sys
import tempfile
import zlib

W, H = 300, 200
WHITE, RED = (255, 255, 255), (255, 0, 0)


def chunk(kind, payload):
    return struct.pack('>I', len(payload)) + kind + payload + struct.pack('>I', zlib.crc32(kind + payload) & 0xFFFFFFFF)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filtered(line, prev, bpp, ftype):
    """Row `line` encoded with PNG filter `ftype` (the inverse of what a decoder undoes)."""
    out = bytearray()
    for i, x in enumerate(line):
        left = line[i - bpp] if i >= bpp else 0
        up = prev[i]
        upleft = prev[i - bpp] if i >= bpp else 0
        pred = [0, left, up, (left + up) >> 1, paeth(left, up, upleft)][ftype]
        out.append((x - pred) & 0xFF)
    return bytes([ftype]) + bytes(out)


def png(rows, ctype, bpp, palette=None, height=None):
    """An 8-bit PNG of `rows` (bytes per row), row y encoded with filter y % 5; `height`: the
    height its header claims (default: the number of rows)."""
    prev, raw = bytes(len(rows[0])), b''
    for y, line in enumerate(rows):
        raw += filtered(line, prev, bpp, y % 5)
        prev = line
    data = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', len(rows[0]) // bpp, height or len(rows), 8, ctype, 0, 0, 0))
    if palette:
        data += chunk(b'PLTE', b''.join(bytes(c) for c in palette))
    return data + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')


def diagonal(w, h, ink, paper, bpp):
    """A w x h image of `paper` with a diagonal of min(w, h) pixels of `ink` (values of bpp bytes)."""
    rows = []
    for y in range(h):
        line = bytearray(paper * w)
        if y < w:
            line[y * bpp:(y + 1) * bpp] = ink
        rows.append(bytes(line))
    return rows


def main():
    checker, wrapper = sys.argv[1], sys.argv[2]
    failures = []
    with tempfile.TemporaryDirectory() as d:
        def write(name, data):
            path = os.path.join(d, name)
            with open(path, 'wb') as f:
                f.write(data)
            return path

        def expect(path, rc, pattern, *extra):
            r = subprocess.run([sys.executable, checker, *extra, path], capture_output=True, text=True)
            ok = r.returncode == rc and pattern in r.stdout
            print(('pass' if ok else 'FAIL') + ': %s -> exit %d: %s' % (os.path.basename(path), r.returncode, r.stdout.strip().splitlines()[0] if r.stdout.strip() else r.stderr.strip()))
            if not ok:
                failures.append('%s: expected exit %d and %r' % (os.path.basename(path), rc, pattern))

        pal = [WHITE, RED] + [WHITE] * 254  # indices 2.. are white too: blank unless index 1 is used
        # The diagonal has 200 pixels of 60000: 0.33% ink, 2 colours, with every filter type.
        expect(write('palette.png', png(diagonal(W, H, b'\x01', b'\x00', 1), 3, 1, pal)), 0, '300 x 200 pixels, 1')
        expect(os.path.join(d, 'palette.png'), 0, '2 colours, 0.33% off the background')
        expect(write('rgb.png', png(diagonal(W, H, bytes(RED), bytes(WHITE), 3), 2, 3)), 0, '2 colours, 0.33% off the background')
        expect(write('rgba.png', png(diagonal(W, H, bytes(RED) + b'\xff', bytes(WHITE) + b'\xff', 4), 6, 4)), 0, '2 colours, 0.33% off')
        ppm = b'P6\n# comment\n%d %d\n255\n' % (W, H) + b''.join(diagonal(W, H, bytes(RED), bytes(WHITE), 3))
        expect(write('diag.ppm', ppm), 0, '2 colours, 0.33% off the background')
        expect(os.path.join(d, 'palette.png'), 0, 'images checked: 1')
        # Failures: blank (one colour; two indices of one colour), too little ink, too small.
        expect(write('blank.png', png(diagonal(W, H, b'\x00', b'\x00', 1), 3, 1, pal)), 1, 'blank: 1 colour')
        expect(write('blank2.png', png(diagonal(W, H, b'\x02', b'\x00', 1), 3, 1, pal)), 1, 'blank: 1 colour')
        expect(os.path.join(d, 'rgb.png'), 1, 'blank: 2 colour(s)', '--min-ink', '0.01')
        expect(write('small.png', png(diagonal(50, 50, b'\x01', b'\x00', 1), 3, 1, pal)), 1, 'smaller than 100 x 100')
        expect(write('blank.ppm', b'P6\n%d %d\n255\n' % (W, H) + bytes(WHITE) * (W * H)), 1, 'blank')
        # Corrupt, truncated, wrong length, not an image, missing.
        good = png(diagonal(W, H, b'\x01', b'\x00', 1), 3, 1, pal)
        idat = good.index(b'IDAT')
        expect(write('crc.png', good[:idat + 10] + bytes([good[idat + 10] ^ 1]) + good[idat + 11:]), 1, 'CRC mismatch')
        expect(write('truncated.png', good[:len(good) // 2]), 1, 'FAIL')
        expect(write('short.png', png(diagonal(W, H, b'\x01', b'\x00', 1)[:-1], 3, 1, pal, height=H)), 1, 'image data holds')
        expect(write('text.png', b'hello, not a picture'), 1, 'neither PNG nor binary PPM')
        expect(os.path.join(d, 'missing.png'), 1, 'cannot open')

        def wrapped(name, rc, pattern, ext, command):
            r = subprocess.run([wrapper, sys.executable, os.path.join(d, 'run'), ext, 'pic', '--', *command], capture_output=True, text=True)
            ok = r.returncode == rc and pattern in r.stdout
            print(('pass' if ok else 'FAIL') + ': check_pictures.sh, %s -> exit %d' % (name, r.returncode))
            if not ok:
                failures.append('check_pictures.sh %s: expected exit %d and %r, got %d: %s' % (name, rc, pattern, r.returncode, r.stdout))

        copy = [sys.executable, '-c', 'import shutil, sys; shutil.copy(sys.argv[1], "pic.png")', os.path.join(d, 'palette.png')]
        wrapped('a picture written', 0, 'images checked: 1', 'png', copy)
        wrapped('no picture written', 1, 'cannot open', 'png', ['true'])
        wrapped('a blank picture', 1, 'blank', 'png', copy[:-1] + [os.path.join(d, 'blank.png')])
        wrapped('the command fails', 3, 'the command failed (exit 3)', 'png', ['sh', '-c', 'exit 3'])
        wrapped('a format it cannot decode', 77, 'SKIP: ', 'gif', copy)
    if failures:
        print('check_images.py self-test FAILED: ' + '; '.join(failures))
        return 1
    print('check_images.py self-test: all cases as expected')
    return 0


if __name__ == '__main__':
    sys.exit(main())
