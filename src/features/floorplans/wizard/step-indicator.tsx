import { wizardStrings as w, wizardSteps } from '../strings.ts';

export type WizardStep = 1 | 2 | 3 | 4 | 5;

/** Spec §2: the progress indicator over the five steps; the current one is marked for AT. */
export function StepIndicator({ step }: { step: WizardStep }) {
  return (
    <ol className="wizard-steps" aria-label={w.progress}>
      {wizardSteps.map((label, index) => {
        const number = index + 1;
        const state = number < step ? 'done' : number === step ? 'current' : 'todo';
        return (
          <li
            key={label}
            className={`wizard-step wizard-step-${state}`}
            aria-current={number === step ? 'step' : undefined}
          >
            <span className="wizard-step-number" aria-hidden="true">
              {state === 'done' ? '✓' : number}
            </span>
            <span className="wizard-step-label">{label}</span>
          </li>
        );
      })}
    </ol>
  );
}
