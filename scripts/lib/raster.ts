// A tiny RGB raster with the few shapes the demo drawings need (no text, no anti-aliasing):
// flat colours keep the committed PNGs small and make pixel checks in tests exact.
import type { RgbImage } from './png.ts';

export type Rgb = readonly [r: number, g: number, b: number];

export function hexColor(hex: string): Rgb {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new Error(`Colour must be #rrggbb, got '${hex}'`);
  return [
    Number.parseInt(match[1]!, 16),
    Number.parseInt(match[2]!, 16),
    Number.parseInt(match[3]!, 16),
  ];
}

export class Raster implements RgbImage {
  readonly data: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb,
  ) {
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
      throw new Error(`Raster size must be positive integers, got ${width}×${height}`);
    }
    this.data = new Uint8Array(width * height * 3);
    this.fillRect(0, 0, width, height, background);
  }

  private span(y: number, x0: number, x1: number, color: Rgb): void {
    if (y < 0 || y >= this.height) return;
    const from = Math.max(0, x0);
    const to = Math.min(this.width, x1);
    for (let x = from; x < to; x++) {
      const i = (y * this.width + x) * 3;
      this.data[i] = color[0];
      this.data[i + 1] = color[1];
      this.data[i + 2] = color[2];
    }
  }

  /** Fills the pixels whose centres lie inside the rectangle (fractional edges allowed). */
  fillRect(x: number, y: number, w: number, h: number, color: Rgb): void {
    const x0 = Math.round(x);
    const x1 = Math.round(x + w);
    for (
      let row = Math.max(0, Math.round(y));
      row < Math.min(this.height, Math.round(y + h));
      row++
    ) {
      this.span(row, x0, x1, color);
    }
  }

  strokeRect(x: number, y: number, w: number, h: number, thickness: number, color: Rgb): void {
    this.fillRect(x, y, w, thickness, color);
    this.fillRect(x, y + h - thickness, w, thickness, color);
    this.fillRect(x, y, thickness, h, color);
    this.fillRect(x + w - thickness, y, thickness, h, color);
  }

  fillCircle(cx: number, cy: number, r: number, color: Rgb): void {
    for (let y = Math.floor(cy - r); y <= Math.ceil(cy + r); y++) {
      const dy = y + 0.5 - cy;
      if (dy * dy > r * r) continue;
      const dx = Math.sqrt(r * r - dy * dy);
      this.span(y, Math.round(cx - dx), Math.round(cx + dx), color);
    }
  }

  /** A thick segment: every pixel whose centre is within thickness/2 of it. */
  line(x0: number, y0: number, x1: number, y1: number, thickness: number, color: Rgb): void {
    const half = thickness / 2;
    const dx = x1 - x0;
    const dy = y1 - y0;
    const lengthSq = dx * dx + dy * dy;
    for (
      let y = Math.floor(Math.min(y0, y1) - half);
      y <= Math.ceil(Math.max(y0, y1) + half);
      y++
    ) {
      if (y < 0 || y >= this.height) continue;
      for (
        let x = Math.floor(Math.min(x0, x1) - half);
        x <= Math.ceil(Math.max(x0, x1) + half);
        x++
      ) {
        const px = x + 0.5 - x0;
        const py = y + 0.5 - y0;
        const t = lengthSq === 0 ? 0 : Math.max(0, Math.min(1, (px * dx + py * dy) / lengthSq));
        const ex = px - t * dx;
        const ey = py - t * dy;
        if (ex * ex + ey * ey <= half * half) this.span(y, x, x + 1, color);
      }
    }
  }

  /** Even-odd scanline fill of a closed polygon. */
  fillPolygon(points: readonly (readonly [number, number])[], color: Rgb): void {
    if (points.length < 3)
      throw new Error(`A polygon needs 3 or more points, got ${points.length}`);
    const ys = points.map((p) => p[1]);
    for (let y = Math.floor(Math.min(...ys)); y <= Math.ceil(Math.max(...ys)); y++) {
      const cy = y + 0.5;
      const crossings: number[] = [];
      for (let i = 0; i < points.length; i++) {
        const [ax, ay] = points[i]!;
        const [bx, by] = points[(i + 1) % points.length]!;
        if (ay <= cy !== by <= cy) crossings.push(ax + ((cy - ay) / (by - ay)) * (bx - ax));
      }
      crossings.sort((a, b) => a - b);
      for (let i = 0; i + 1 < crossings.length; i += 2) {
        this.span(y, Math.round(crossings[i]!), Math.round(crossings[i + 1]!), color);
      }
    }
  }
}
