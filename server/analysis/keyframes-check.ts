// Checks a posted keyframes text with the path core itself (the parser the video page runs), so
// what the API accepts is exactly what the page can draw. Malformed lines are listed by number.
import { createNodePathEngine } from '../../workers/path-engine.node.ts';
import type { ParseReport } from '../../workers/path-types.ts';

/** The part of the path engine used here. */
interface KeyframesParser {
  parseKeyframes(text: Uint8Array): { report: ParseReport };
  keyframeImageNames(text: Uint8Array): string[];
}

// Made on the first check, not at start: a server that is never posted keyframes compiles nothing.
let engine: Promise<KeyframesParser> | null = null;
const pathEngine = () => {
  engine ??= createNodePathEngine().catch((error: unknown) => {
    engine = null;
    throw error;
  });
  return engine;
};

/** Listed at most; a file of garbage names its first lines, not thousands. */
const LISTED_BAD_LINES = 10;

export interface KeyframesCheck {
  points: number;
  /** 1-based numbers of the first malformed lines (empty when there is none). */
  badLines: number[];
  badLineCount: number;
  empty: boolean;
  /** The `.png` names the page will list. */
  imageNames: string[];
}

export async function checkKeyframes(text: Buffer): Promise<KeyframesCheck> {
  const core = await pathEngine();
  const { report } = core.parseKeyframes(text);
  const badLines: number[] = [];
  // The core reports the first bad line: parse again after it to find the next, a few times.
  let offset = 0;
  let lineBase = 0;
  let first = report.firstBadLine;
  while (first > 0 && badLines.length < LISTED_BAD_LINES) {
    badLines.push(lineBase + first);
    for (let skip = 0; skip < first; skip++) {
      const next = text.indexOf(0x0a, offset);
      offset = next < 0 ? text.length : next + 1;
    }
    lineBase += first;
    first =
      offset < text.length ? core.parseKeyframes(text.subarray(offset)).report.firstBadLine : 0;
  }
  return {
    points: report.points,
    badLines,
    badLineCount: report.badLines,
    empty: report.empty,
    imageNames: core.keyframeImageNames(text),
  };
}
