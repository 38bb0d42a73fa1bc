// A replaced detection in words, shared at runtime by the report's flag, the PDF and the report
// page (a pure module with a type import only, so the web app can bundle it).
import type { ReplacedDetection } from './reports.ts';

/** 'debris 97%, carton 72% at 8.00 s': its objects, strongest first, and its time when known. */
export function replacedDetectionText(detection: ReplacedDetection | null): string {
  if (!detection) return 'a detection whose details were replaced before they were kept';
  const objects = detection.labels
    .map((label, i) => ({ label, confidence: detection.confs[i] ?? 0 }))
    .sort((a, b) => b.confidence - a.confidence)
    .map((object) => `${object.label} ${(object.confidence * 100).toFixed(0)}%`)
    .join(', ');
  return detection.time === null ? objects : `${objects} at ${detection.time.toFixed(2)} s`;
}
