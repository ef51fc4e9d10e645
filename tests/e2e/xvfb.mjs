// The virtual X display of the e2e harness.
//
// `startXvfb` starts Xvfb on a display it picks itself and, with `fbdir`,
// keeps the screen in an XWD file there; `xwdToPng` turns that file into a
// PNG, so the harness can photograph the whole screen (the real window as a
// person would see it) without WebDriver.

import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

import { requireCommand } from './locations.mjs';
import { OutputTail } from './log.mjs';
import { spawnGroup, waitUntilReady } from './processes.mjs';

/**
 * Starts Xvfb on a free display. Uses -displayfd, so Xvfb picks the display
 * and reports it only once it is ready to accept connections.
 */
export async function startXvfb({ fbdir, timeoutMs = 15_000 } = {}) {
  requireCommand('Xvfb', 'xvfb');
  const args = ['-displayfd', '3', '-screen', '0', '1280x800x24', '-nolisten', 'tcp', '-noreset'];
  if (fbdir) args.push('-fbdir', fbdir);
  const child = spawnGroup('Xvfb', args, { stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  const out = new OutputTail(8_000);
  out.attach(child.stdout, 'Xvfb');
  out.attach(child.stderr, 'Xvfb');
  let fdText = '';
  child.stdio[3].setEncoding('utf8');
  child.stdio[3].on('data', (d) => (fdText += d));
  const display = await waitUntilReady(child, {
    name: 'Xvfb',
    output: out,
    probe: () => {
      const m = /^(\d+)\n/.exec(fdText);
      return m ? `:${m[1]}` : null;
    },
    timeout: timeoutMs,
    interval: 50,
    message: 'Xvfb to report its display number',
  });
  return { child, display, framebuffer: fbdir ? join(fbdir, 'Xvfb_screen0') : null, output: out };
}

// ---------------------------------------------------------------------------
// Xvfb framebuffer (XWD) → PNG

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf) {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

function maskShift(mask) {
  let s = 0;
  while (mask && !(mask & 1)) {
    mask >>>= 1;
    s++;
  }
  return s;
}

/** Converts an XWD (ZPixmap, 32 bpp) image, as written by `Xvfb -fbdir`, to PNG. */
export function xwdToPng(xwd) {
  const h = (i) => xwd.readUInt32BE(i * 4);
  const headerSize = h(0);
  const [format, width, height, byteOrder, bpp, bytesPerLine] = [h(2), h(4), h(5), h(7), h(11), h(12)];
  const [rMask, gMask, bMask] = [h(14), h(15), h(16)];
  const ncolors = h(19);
  if (format !== 2 || bpp !== 32) throw new Error(`unsupported XWD (format ${format}, ${bpp} bpp)`);
  const data = headerSize + ncolors * 12;
  const [rs, gs, bs] = [maskShift(rMask), maskShift(gMask), maskShift(bMask)];
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const off = data + y * bytesPerLine + x * 4;
      const px = byteOrder === 0 ? xwd.readUInt32LE(off) : xwd.readUInt32BE(off);
      const o = row + 1 + x * 3;
      raw[o] = (px & rMask) >>> rs;
      raw[o + 1] = (px & gMask) >>> gs;
      raw[o + 2] = (px & bMask) >>> bs;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
