/**
 * Generates Angelia's icons into `resources/` (committed; run again only to change them):
 * `npx tsx scripts/icons.ts`.
 *
 * - `trayTemplate.png` (16×16) + `@2x` and `trayAttentionTemplate.png` + `@2x`: macOS menu-bar template
 *   images (black + alpha; macOS tints them for light and dark menu bars). The attention variant adds a
 *   dot: approvals are waiting.
 * - `tray.png` (24×24) + `@2x` and `trayAttention.png` + `@2x`: the Linux tray icon, in colour (panels
 *   are light or dark), the attention variant with a red dot.
 * - `danger.png` (16×16) + `@2x`: the red mark of a FULL ACCESS row in the tray menu.
 * - `icon.png` (1024×1024): the app icon (electron-builder turns it into .icns for the dmg).
 *
 * The glyph is a halo over a bell-shaped body (an angel, drawn with a few shapes). Pixels are
 * anti-aliased by supersampling; the PNG encoder is ~30 lines over `node:zlib` (no dependency).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

/** RGBA, 0–255 each. */
type Rgba = readonly [number, number, number, number];
/** One layer: a shape (coverage test in unit coordinates, y down) and its colour. `clear` erases. */
interface Layer {
  inside: (x: number, y: number) => boolean;
  color: Rgba;
  clear?: boolean;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** Encodes an RGBA pixel buffer (row-major, 4 bytes a pixel) as a PNG (8-bit RGBA, filter 0). */
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0;
    Buffer.from(rgba.buffer, rgba.byteOffset + y * width * 4, width * 4).copy(raw, y * (width * 4 + 1) + 1);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** Rasterises layers (painted in order, "over" compositing) at `size`×`size` with `ss`×`ss` samples a pixel. */
export function render(size: number, layers: Layer[], ss = 6): Uint8Array {
  const out = new Uint8Array(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let sy = 0; sy < ss; sy++) {
        for (let sx = 0; sx < ss; sx++) {
          const x = (px + (sx + 0.5) / ss) / size;
          const y = (py + (sy + 0.5) / ss) / size;
          let cr = 0,
            cg = 0,
            cb = 0,
            ca = 0;
          for (const l of layers) {
            if (!l.inside(x, y)) continue;
            if (l.clear) {
              cr = cg = cb = ca = 0;
              continue;
            }
            const la = l.color[3] / 255;
            cr = l.color[0] * la + cr * (1 - la);
            cg = l.color[1] * la + cg * (1 - la);
            cb = l.color[2] * la + cb * (1 - la);
            ca = la + ca * (1 - la);
          }
          r += cr;
          g += cg;
          b += cb;
          a += ca;
        }
      }
      const n = ss * ss;
      const alpha = a / n;
      const i = (py * size + px) * 4;
      // Colour channels are stored un-premultiplied.
      out[i] = alpha > 0 ? Math.round(r / n / alpha) : 0;
      out[i + 1] = alpha > 0 ? Math.round(g / n / alpha) : 0;
      out[i + 2] = alpha > 0 ? Math.round(b / n / alpha) : 0;
      out[i + 3] = Math.round(alpha * 255);
    }
  }
  return out;
}

/** An elliptic ring of even thickness `t` (distance ≈ (k − 1) / |∇k|). */
const ellipseRing =
  (cx: number, cy: number, rx: number, ry: number, t: number) =>
  (x: number, y: number): boolean => {
    const dx = x - cx,
      dy = y - cy;
    const k = Math.hypot(dx / rx, dy / ry);
    if (k === 0) return false;
    const grad = Math.hypot(dx / (rx * rx), dy / (ry * ry)) / k;
    return Math.abs(k - 1) / grad <= t / 2;
  };
const disc =
  (cx: number, cy: number, r: number) =>
  (x: number, y: number): boolean =>
    Math.hypot(x - cx, y - cy) <= r;
/** A robe: rounded shoulders at `top`, widening to `halfWidth` at `base`. */
const robe =
  (top: number, base: number, halfWidth: number) =>
  (x: number, y: number): boolean => {
    if (y < top || y > base) return false;
    const f = (y - top) / (base - top);
    const w = 0.17 + (halfWidth - 0.17) * f;
    const shoulder = Math.min(1, Math.sqrt(Math.max(0, f * 6)));
    return Math.abs(x - 0.5) <= w * shoulder;
  };
const rect =
  (x0: number, y0: number, x1: number, y1: number) =>
  (x: number, y: number): boolean =>
    x >= x0 && x <= x1 && y >= y0 && y <= y1;
const roundedSquare =
  (inset: number, radius: number) =>
  (x: number, y: number): boolean => {
    const lo = inset + radius,
      hi = 1 - inset - radius;
    const cx = Math.min(Math.max(x, lo), hi),
      cy = Math.min(Math.max(y, lo), hi);
    return Math.hypot(x - cx, y - cy) <= radius;
  };

const halo = ellipseRing(0.5, 0.12, 0.24, 0.075, 0.07);
const head = disc(0.5, 0.38, 0.13);
const body = (x: number, y: number): boolean => head(x, y) || robe(0.56, 0.96, 0.4)(x, y);
const glyph = (color: Rgba): Layer[] => [
  { inside: halo, color },
  { inside: body, color },
];
const withDot = (layers: Layer[], color: Rgba): Layer[] => [
  ...layers,
  { inside: disc(0.84, 0.22, 0.23), color: [0, 0, 0, 0], clear: true },
  { inside: disc(0.84, 0.22, 0.16), color },
];

const BLACK: Rgba = [0, 0, 0, 255];
const VIOLET: Rgba = [139, 124, 246, 255];
const RED: Rgba = [229, 57, 47, 255];
const WHITE: Rgba = [255, 255, 255, 255];

/** Every icon file: name → [size, layers]. */
export function iconSet(): Array<{ name: string; size: number; layers: Layer[] }> {
  const set: Array<{ name: string; size: number; layers: Layer[] }> = [];
  const both = (base: string, size: number, layers: Layer[]): void => {
    set.push({ name: `${base}.png`, size, layers }, { name: `${base}@2x.png`, size: size * 2, layers });
  };
  both('trayTemplate', 16, glyph(BLACK));
  both('trayAttentionTemplate', 16, withDot(glyph(BLACK), BLACK));
  both('tray', 24, glyph(VIOLET));
  both('trayAttention', 24, withDot(glyph(VIOLET), RED));
  both('danger', 16, [
    { inside: disc(0.5, 0.5, 0.36), color: RED },
    { inside: rect(0.44, 0.26, 0.56, 0.6), color: WHITE },
    { inside: disc(0.5, 0.71, 0.065), color: WHITE },
  ]);
  // App icon: white glyph on a violet rounded square (the glyph scaled into the middle).
  const scale =
    (f: (x: number, y: number) => boolean) =>
    (x: number, y: number): boolean =>
      f((x - 0.2) / 0.6, (y - 0.18) / 0.6);
  set.push({
    name: 'icon.png',
    size: 1024,
    layers: [
      { inside: roundedSquare(0.06, 0.2), color: [91, 75, 214, 255] },
      { inside: scale(halo), color: WHITE },
      { inside: scale(body), color: WHITE },
    ],
  });
  return set;
}

function main(): void {
  const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources');
  mkdirSync(dir, { recursive: true });
  for (const { name, size, layers } of iconSet()) {
    const png = encodePng(size, size, render(size, layers, size >= 512 ? 3 : 8));
    writeFileSync(join(dir, name), png);
    process.stdout.write(`resources/${name} ${size}×${size} ${png.length} bytes\n`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
