// Labels on a floor plan, shared by the path player and the calibrator.

export interface LabelStyle {
  font: string;
  ink: string;
  halo: string;
}

/**
 * Text with a light halo, readable over any part of a plan, right of `x`; where it would run past
 * the plan's right edge (`planWidth`) it goes left of `leftEdge` instead, so it is never cut off.
 */
export function drawLabel(
  ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D,
  style: LabelStyle,
  text: string,
  at: { x: number; y: number; leftEdge: number; planWidth: number },
): void {
  ctx.font = style.font;
  ctx.textBaseline = 'middle';
  ctx.lineJoin = 'round';
  const width = ctx.measureText(text).width;
  const left = at.x + width > at.planWidth ? Math.max(at.leftEdge - width - 4, 0) : at.x;
  ctx.lineWidth = 3;
  ctx.strokeStyle = style.halo;
  ctx.strokeText(text, left, at.y);
  ctx.fillStyle = style.ink;
  ctx.fillText(text, left, at.y);
}
