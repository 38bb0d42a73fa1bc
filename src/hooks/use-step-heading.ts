import { useEffect, useRef } from 'react';

/**
 * The ref of a step's heading (give it tabIndex -1), focused whenever `step` changes but not on
 * the first render: the change announces itself, and keyboard and screen-reader users go on from
 * the new step instead of the top of the page, where a removed button left focus.
 */
export function useStepHeading<Step>(step: Step) {
  const heading = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    heading.current?.focus();
  }, [step]);
  return heading;
}
