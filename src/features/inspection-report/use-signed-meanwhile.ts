import { type RefObject, useEffect, useRef, useState } from 'react';
import type { InspectionReport } from '../../types/api.ts';
import { reportStrings as s } from './strings.ts';

/**
 * A reload that shows the record signed (the reader back at the tab, a lost answer): Approve,
 * Reject and the detections' Confirm and Dismiss go, and the focus one of them held would fall to
 * <body>. It goes to the signature instead; signed by someone else, the returned text (for a
 * polite status) says so, since nothing on screen says why the buttons went.
 */
export function useSignedMeanwhile(
  report: InspectionReport | null,
  signature: RefObject<HTMLElement | null>,
  userId: string | undefined,
): string {
  const [said, setSaid] = useState('');
  // The control that last took the focus; a click elsewhere leaves none (the focus is on <body>).
  const focused = useRef<Element | null>(null);
  useEffect(() => {
    const onFocusIn = (event: FocusEvent) => {
      focused.current = event.target as Element;
    };
    const onPointerDown = () => {
      focused.current = null;
    };
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('pointerdown', onPointerDown, true);
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('pointerdown', onPointerDown, true);
    };
  }, []);

  // Whether the report shown before this one was pending (null: none shown yet).
  const wasPending = useRef<boolean | null>(null);
  useEffect(() => {
    if (!report) return;
    const before = wasPending.current;
    wasPending.current = !report.signature;
    if (before !== true || !report.signature) return;
    const lost = focused.current;
    const onBody = !document.activeElement || document.activeElement === document.body;
    if (lost && !lost.isConnected && onBody) signature.current?.focus();
    if (report.signature.signerId !== userId) setSaid(s.signedMeanwhile(report.signature));
  }, [report, signature, userId]);
  return said;
}
