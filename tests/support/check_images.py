#!/usr/bin/env python3
"""Opens pictures and checks that each one is a real, non-blank image.

    check_images.py [--min-size W H] [--min-ink FRACTION] FILE...

Formats: PNG (8-bit grey, RGB, grey+alpha, RGBA or palette, not interlaced: every PNG PETSc's
image viewer writes) and binary PPM (P6, PETSc's fallback without libpng). A PNG is decoded
completely: chunk CRCs, the IHDR header, the zlib stream of the IDAT chunks and the scanline
filters, so a truncated or corrupt file fails. Each image must be at least W x H pixels
(default 100 x 100) and not blank: at least FRACTION (default 0.002) of its pixels must differ
from its most common colour, the background.

Prints one line per file and "images checked: N" when all pass; exit 1 on any failure.
Standard library only (zlib, struct).
"""
import argparse
import struct
import sys
import zlib
from collections import Counter

PNG_SIGNATURE = b'\x89PNG\r\n\x1a\n'
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # PNG colour type -> samples per pixel


class BadImage(Exception):
    pass


def png_chunks(data):
    """(type, payload) of every chunk, CRCs checked, up to IEND."""
    if not data.startswith(PNG_SIGNATURE):
        raise BadImage('not a PNG (signature)')
    pos = len(PNG_SIGNATURE)
    while pos + 12 <= len(data):
        (length,) = struct.unpack('>I', data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        payload = data[pos + 8:pos + 8 + length]
        if len(payload) != length or pos + 12 + length > len(data):
            raise BadImage('truncated chunk %r' % kind)
        (crc,) = struct.unpack('>I', data[pos + 8 + length:pos + 12 + length])
        if zlib.crc32(kind + payload) & 0xFFFFFFFF != crc:
            raise BadImage('CRC mismatch in chunk %r' % kind)
        yield kind, payload
        if kind == b'IEND':
            return
        pos += 12 + length
    raise BadImage('no IEND chunk (truncated file)')


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def unfilter(raw, width, height, bpp):
    """The scanlines of a non-interlaced 8-bit image, PNG filters undone."""
    stride = width * bpp
    if len(raw) != height * (stride + 1):
        raise BadImage('image data holds %d bytes, expected %d' % (len(raw), height * (stride + 1)))
    rows, prev = [], bytearray(stride)
    for y in range(height):
        base = y * (stride + 1)
        ftype, line = raw[base], bytearray(raw[base + 1:base + 1 + stride])
        if ftype == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xFF
        elif ftype == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 0xFF
        elif ftype == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif ftype == 4:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                upleft = prev[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + paeth(left, prev[i], upleft)) & 0xFF
        elif ftype != 0:
            raise BadImage('unknown filter type %d in row %d' % (ftype, y))
        rows.append(bytes(line))
        prev = line
    return rows


def colour_counts(rows, bpp, palette):
    """How many pixels have each colour (palette indices resolved to RGB)."""
    counts = Counter()
    for line in rows:
        if bpp == 1:
            counts.update(line)
        else:
            counts.update(zip(*(line[k::bpp] for k in range(bpp))))
    if palette is None:
        return counts
    merged = Counter()
    for index, n in counts.items():
        if 3 * index + 3 > len(palette):
            raise BadImage('palette index %d outside the palette' % index)
        merged[bytes(palette[3 * index:3 * index + 3])] += n
    return merged


def read_png(data):
    header, palette, idat = None, None, []
    for kind, payload in png_chunks(data):
        if kind == b'IHDR':
            header = struct.unpack('>IIBBBBB', payload)
        elif kind == b'PLTE':
            palette = payload
        elif kind == b'IDAT':
            idat.append(payload)
    if header is None:
        raise BadImage('no IHDR chunk')
    width, height, depth, ctype, _, _, interlace = header
    if depth != 8 or ctype not in CHANNELS or interlace != 0:
        raise BadImage('unsupported PNG (bit depth %d, colour type %d, interlace %d)' % (depth, ctype, interlace))
    if ctype == 3 and palette is None:
        raise BadImage('palette image without a PLTE chunk')
    try:
        raw = zlib.decompress(b''.join(idat))
    except zlib.error as e:
        raise BadImage('image data does not decompress: %s' % e)
    bpp = CHANNELS[ctype]
    rows = unfilter(raw, width, height, bpp)
    return width, height, colour_counts(rows, bpp, palette if ctype == 3 else None)


def read_ppm(data):
    tokens, pos = [], 2
    while len(tokens) < 3:  # width, height, maxval, separated by whitespace and comments
        while pos < len(data) and data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b'#':
            pos = data.index(b'\n', pos)
            continue
        start = pos
        while pos < len(data) and data[pos:pos + 1].isdigit():
            pos += 1
        if start == pos:
            raise BadImage('malformed PPM header')
        tokens.append(int(data[start:pos]))
    width, height, maxval = tokens
    if maxval != 255:
        raise BadImage('unsupported PPM maxval %d' % maxval)
    pixels = data[pos + 1:]
    if len(pixels) != 3 * width * height:
        raise BadImage('PPM holds %d bytes of pixels, expected %d' % (len(pixels), 3 * width * height))
    rows = [pixels[y * 3 * width:(y + 1) * 3 * width] for y in range(height)]
    return width, height, colour_counts(rows, 3, None)


def check(path, min_w, min_h, min_ink):
    """A line describing the image; raises BadImage on any failure."""
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except OSError as e:
        raise BadImage('cannot open: %s' % e.strerror)
    if data.startswith(PNG_SIGNATURE):
        width, height, counts = read_png(data)
    elif data.startswith(b'P6'):
        width, height, counts = read_ppm(data)
    else:
        raise BadImage('neither PNG nor binary PPM (first bytes %r)' % data[:8])
    if width < min_w or height < min_h:
        raise BadImage('%d x %d pixels, smaller than %d x %d' % (width, height, min_w, min_h))
    total = width * height
    ink = 1.0 - counts.most_common(1)[0][1] / total
    if len(counts) < 2 or ink < min_ink:
        raise BadImage('blank: %d colour(s), %.4f%% of the pixels off the background (at least %.4f%% needed)' % (len(counts), 100 * ink, 100 * min_ink))
    return '%s: %d x %d pixels, %d bytes, %d colours, %.2f%% off the background' % (path, width, height, len(data), len(counts), 100 * ink)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--min-size', nargs=2, type=int, default=[100, 100], metavar=('W', 'H'))
    parser.add_argument('--min-ink', type=float, default=0.002)
    parser.add_argument('files', nargs='+')
    args = parser.parse_args()
    failed = 0
    for path in args.files:
        try:
            print('ok: ' + check(path, args.min_size[0], args.min_size[1], args.min_ink))
        except BadImage as e:
            print('FAIL: %s: %s' % (path, e))
            failed += 1
    if failed:
        print('images failed: %d of %d' % (failed, len(args.files)))
        return 1
    print('images checked: %d' % len(args.files))
    return 0


if __name__ == '__main__':
    sys.exit(main())
