import { type ReactNode, useMemo, useState } from 'react';
import { useSnapshot } from 'valtio';
import { getLineClearances } from '../../api/get-line-clearances.ts';
import { BreadcrumbBar } from '../../components/breadcrumb-bar.tsx';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import {
  changeWords,
  deletionWords,
  ReasonDialog,
  useReasonField,
} from '../../components/reason-dialog.tsx';
import { lineClearanceMessages } from '../../config/entity-messages.ts';
import { usePageHeading, useStepHeading } from '../../hooks/use-heading-focus.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { ApiError } from '../../lib/api-client.ts';
import { refusesField } from '../../lib/run-action.ts';
import { session } from '../../stores/session.ts';
import type { Floorplan, FloorplanConfiguration, LineClearance } from '../../types/api.ts';
import { deleteFloorplan } from './api/delete-floorplan.ts';
import { getFloorplans } from './api/get-floorplans.ts';
import { getLineConfiguration } from './api/get-line-configuration.ts';
import { saveConfiguration } from './api/save-configuration.ts';
import { Calibrator } from './calibrator/calibrator.tsx';
import './floorplans.css';
import { withMissingCodes } from './labels/tag-codes.ts';
import { canChangeLine } from './permissions.ts';
import { wizardStrings as w, wizardSteps } from './strings.ts';
import { downloadJson, exportRequest, saveRequest } from './wizard/configuration-file.ts';
import { alertAction, alertFailure, failureWithReason } from './wizard/failure-alert.ts';
import { MappingStep } from './wizard/mapping-step.tsx';
import { ReviewStep } from './wizard/review-step.tsx';
import {
  changedByWhomWhen,
  type SavedMeanwhile,
  SavedMeanwhileNotice,
} from './wizard/saved-meanwhile-notice.tsx';
import { StepIndicator, type WizardStep } from './wizard/step-indicator.tsx';
import { unsavedWork, useUnsavedWork } from './wizard/unsaved-work.tsx';
import { UploadStep } from './wizard/upload-step.tsx';
import { useFloorplans } from './wizard/use-floorplans.ts';
import { useLineConfiguration } from './wizard/use-line-configuration.ts';

/** Spec §2 Floorplan manager: the five-step wizard from upload to a saved configuration. */
interface WizardAction {
  label: string;
  onClick(): void;
  disabled?: boolean;
}

/** The Back / Continue buttons under a wizard step. */
function WizardNav({ back, next }: { back: WizardAction; next?: WizardAction }) {
  return (
    <div className="wizard-nav">
      <button type="button" className="btn btn-secondary" onClick={back.onClick}>
        {back.label}
      </button>
      {next && (
        <button
          type="button"
          className="btn btn-primary"
          disabled={next.disabled}
          onClick={next.onClick}
        >
          {next.label}
        </button>
      )}
    </div>
  );
}

/**
 * After a refused save: the line's floor plan as it is now when it is no longer `plan` (another
 * manager replaced it, null: deleted it), or undefined when the plan is unchanged (the refusal
 * had another reason) or cannot be told. Asked of the list rather than read from the server's
 * words, which are for developers ('body.floorplanId is not the floor plan of this line
 * clearance').
 */
async function changedFloorplan(
  error: unknown,
  plan: Floorplan,
): Promise<Floorplan | null | undefined> {
  const refused =
    error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401;
  if (!refused) return undefined;
  const list = await getFloorplans().catch(() => null);
  if (!list) return undefined;
  const current = list.find((candidate) => candidate.lineID === plan.lineID) ?? null;
  return current?._id === plan._id ? undefined : current;
}

/** A save refused because the line's floor plan changed since the calibration was opened. */
interface Replaced {
  old: Floorplan;
  current: Floorplan | null;
}

export default function FloorplanManagerPage() {
  const pageHeading = usePageHeading(w.title);
  const snap = useSnapshot(session);
  const lines = useLoad(getLineClearances, lineClearanceMessages.loadFailed);
  const floorplans = useFloorplans();
  const [step, setStep] = useState<WizardStep>(1);
  const [lineId, setLineId] = useState('');
  const [floorplanId, setFloorplanId] = useState<string | null>(null);
  // The configuration as the calibrator last sent it; null until calibration is done (spec §4).
  const [configuration, setConfiguration] = useState<FloorplanConfiguration | null>(null);
  // The same as opened or last saved: work differing from it is not saved (docs/floorplans.md).
  const [baseline, setBaseline] = useState<FloorplanConfiguration | null>(null);
  const [saving, setSaving] = useState(false);
  const [replaced, setReplaced] = useState<Replaced | null>(null);
  // Placed items carried from a replaced floor plan's calibration onto the current one.
  const [carried, setCarried] = useState<FloorplanConfiguration | null>(null);
  // A save refused as another manager's came first: Save waits for the user's choice.
  const [savedMeanwhile, setSavedMeanwhile] = useState<SavedMeanwhile | null>(null);
  const [deleting, setDeleting] = useState<Floorplan | null>(null);
  const changeReason = useReasonField(changeWords('floor-plan configuration'));
  const saved = useLineConfiguration(lineId);
  const heading = useStepHeading(step);

  const canChange = (line: LineClearance) => canChangeLine(snap.roles, snap.info?.id ?? null, line);
  const line = lines.data?.find((candidate) => candidate._id === lineId) ?? null;
  const editable = line !== null && canChange(line);
  const lineFloorplans = (floorplans.list ?? []).filter((plan) => plan.lineID === lineId);
  const floorplan = lineFloorplans.find((plan) => plan._id === floorplanId) ?? null;
  const unsaved = useMemo(() => unsavedWork(configuration, baseline), [configuration, baseline]);
  const confirm = useConfirm();
  const askUnsaved = useUnsavedWork(unsaved, confirm.ask);
  // The line whose floor plan is being calibrated: step 1 may show another one meanwhile.
  const workPlan = floorplans.list?.find((plan) => plan._id === floorplanId);
  const workLineName =
    lines.data?.find((candidate) => candidate._id === workPlan?.lineID)?.name ?? w.unknownLine;

  /** A reason typed for another line's configuration is not this one's. */
  const chooseLine = (id: string) => {
    if (id !== lineId) changeReason.reset();
    setLineId(id);
  };

  /**
   * Spec §4: choosing a floor plan resets the configuration and the calibration flag. The one
   * already chosen (step 1 and on again) keeps the work.
   */
  const chooseFloorplan = (id: string | null) => {
    if (id !== null && id === floorplanId) return;
    setFloorplanId(id);
    setConfiguration(null);
    setBaseline(null);
    setCarried(null);
    setReplaced(null);
    setSavedMeanwhile(null);
  };

  /**
   * Opens the line's current floor plan with the items placed on the replaced one: the calibrator
   * carries them over, scaled to the new image's frame (as for a saved configuration).
   */
  const openCurrentFloorplan = (current: Floorplan) => {
    const placed = configuration;
    floorplans.replaceForLine(current);
    chooseFloorplan(current._id);
    setCarried(placed);
    setStep(3);
  };

  const firstFloorplanOf = (forLine: string, plans: readonly Floorplan[]) =>
    plans.find((plan) => plan.lineID === forLine)?._id ?? null;

  /**
   * Step 2 for a line, its first floor plan chosen (spec §2). The list is read again, as another
   * manager may have replaced or deleted the plan meanwhile.
   */
  const openMapping = (forLine: string, plans: readonly Floorplan[] = floorplans.list ?? []) => {
    chooseLine(forLine);
    chooseFloorplan(firstFloorplanOf(forLine, plans));
    floorplans.reload();
    setStep(2);
  };

  /** From the calibrator; the first configuration of a plan opened as saved is the baseline. */
  const calibrated = (next: FloorplanConfiguration) => {
    if (configuration === null && carried === null) setBaseline(next);
    setConfiguration(next);
  };

  const uploaded = (plan: Floorplan) => {
    floorplans.replaceForLine(plan);
    openMapping(plan.lineID, [plan]);
  };

  /** Spec §5: the browser's confirmation, then the reason dialog (docs/floorplans.md). */
  const remove = (plan: Floorplan) => {
    if (window.confirm(w.confirmDelete)) setDeleting(plan);
  };

  /** After the deletion, or its refusal as the plan went meanwhile: the list as it is now. */
  const deleted = (plan: Floorplan) => {
    // Spec §4: deleting the selected floor plan clears the selection and the configuration.
    if (plan._id === floorplanId) chooseFloorplan(null);
    floorplans.reload();
  };

  const exportConfiguration = () => {
    const request = exportRequest(
      { _id: lineId, name: line?.name ?? w.unknownLine },
      floorplan,
      configuration,
    );
    if (request.problem !== null) window.alert(request.problem);
    else downloadJson(request.fileName, request.record);
  };

  const save = async () => {
    const request = saveRequest(line, floorplan, configuration);
    if (request.problem !== null) {
      window.alert(request.problem);
      return;
    }
    // Replacing a saved configuration changes the line's checklist: the trail keeps why.
    const reason = saved.version === undefined ? null : changeReason.check();
    if (saved.version !== undefined && reason === null) return;
    setSaving(true);
    try {
      // The version it was opened at (0: none saved): another manager's save since then is not
      // undone unseen.
      const stored = await saveConfiguration({
        ...request.record,
        version: saved.version ?? 0,
        ...(reason && { reason }),
      });
      saved.replace(stored);
      setBaseline(request.record.configuration);
      setSavedMeanwhile(null);
      changeReason.reset();
      setStep(5);
    } catch (error) {
      if (refusesField(error, 'body.reason') && error instanceof ApiError) {
        changeReason.fail(error.serverMessage ?? w.saveFailed);
      }
      const current = floorplan && (await changedFloorplan(error, floorplan));
      if (floorplan && current !== undefined) {
        const lineName = line?.name ?? w.unknownLine;
        const reason = current ? w.floorplanReplaced(lineName) : w.floorplanRemoved(lineName);
        const text = failureWithReason(w.saveFailed, error, reason);
        if (text) window.alert(text);
        setReplaced({ old: floorplan, current });
      } else {
        alertFailure(w.saveFailed, error);
        // Another manager saved since it was opened (the alert names who): the work on screen stays
        // and the line's configuration is read again, so Reset and 'Load the saved configuration'
        // go to theirs and 'Save mine over it' sends the version now stored (docs/floorplans.md).
        if (error instanceof ApiError && error.status === 409) {
          await getLineConfiguration(lineId).then(saved.replace, () => {});
          setSavedMeanwhile({ change: changedByWhomWhen(error) });
        }
      }
    } finally {
      setSaving(false);
    }
  };

  /** Drops the work on screen for the configuration saved meanwhile, opened in the calibrator. */
  const loadSaved = () =>
    confirm.ask(
      {
        title: w.loadSavedConfiguration,
        text: w.confirmLoadSaved,
        cancel: w.cancel,
        confirm: w.loadSavedConfiguration,
      },
      () => {
        setConfiguration(null);
        setCarried(null);
        setSavedMeanwhile(null);
        setStep(3);
      },
    );

  /** Review & Save: every tag without a QR code gets a default one (nothing is saved yet). */
  const giveCodes = () => {
    if (!configuration) return [];
    const filled = withMissingCodes(configuration.tags, line?.name ?? w.unknownLine);
    setConfiguration({ ...configuration, tags: filled.tags });
    return filled.given;
  };

  const stale = replaced && replaced.old._id === floorplanId ? replaced : null;
  const staleNotice = stale && (
    <div className="notice notice-warning" role="alert">
      <p>
        <strong>{stale.current ? w.replacedTitle : w.removedTitle}</strong>
      </p>
      <p>{(stale.current ? w.replacedText : w.removedText)(line?.name ?? w.unknownLine)}</p>
      {stale.current ? (
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => stale.current && openCurrentFloorplan(stale.current)}
        >
          {w.openCurrentFloorplan}
        </button>
      ) : (
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            floorplans.reload();
            chooseFloorplan(null);
            setStep(1);
          }}
        >
          {w.backToUpload}
        </button>
      )}
    </div>
  );

  const meanwhileNotice = savedMeanwhile && (
    <SavedMeanwhileNotice
      lineName={line?.name ?? w.unknownLine}
      refusal={savedMeanwhile}
      saving={saving}
      onLoadSaved={loadSaved}
      onSaveOver={save}
    />
  );

  const startOver = () => {
    chooseLine('');
    chooseFloorplan(null);
    setStep(1);
  };

  let body: ReactNode = null;
  if (step === 1) {
    body = (
      <UploadStep
        lines={lines.data}
        floorplans={floorplans}
        lineId={lineId}
        onLineChange={chooseLine}
        canChange={canChange}
        beforeUpload={(upload) =>
          // The upload opens the new floor plan: the calibration's work goes (asked first).
          askUnsaved(upload, {
            title: w.uploadLosesWorkTitle,
            text: w.uploadLosesWork(workLineName),
            cancel: w.cancel,
            confirm: w.uploadAnyway,
          })
        }
        onUploaded={uploaded}
        onContinue={(id) =>
          // Another line's floor plan drops the work: asked first.
          firstFloorplanOf(id, floorplans.list ?? []) === floorplanId
            ? openMapping(id)
            : askUnsaved(() => openMapping(id))
        }
      />
    );
  } else if (step === 2) {
    body = (
      <>
        {line && (
          <MappingStep
            line={line}
            floorplans={lineFloorplans}
            selectedId={floorplanId}
            editable={editable}
            savedTags={saved.configuration?.tags ?? []}
            onSelect={chooseFloorplan}
            onDelete={remove}
          />
        )}
        <WizardNav
          back={{ label: w.back, onClick: () => setStep(1) }}
          next={{ label: w.continueToCalibration, disabled: !floorplan, onClick: () => setStep(3) }}
        />
      </>
    );
  } else if (step === 3) {
    body = (
      <>
        {floorplan && !saved.ready && (
          <p className="muted" role="status">
            {w.loadingConfiguration}
          </p>
        )}
        {floorplan && saved.ready && (
          <Calibrator
            key={floorplan._id}
            floorplan={floorplan}
            initial={configuration ?? carried ?? saved.configuration}
            saved={saved.configuration}
            readOnly={!editable}
            lineName={line?.name ?? w.unknownLine}
            onChange={calibrated}
          />
        )}
        <WizardNav
          back={{ label: w.back, onClick: () => setStep(2) }}
          next={{
            label: w.reviewAndSave,
            disabled: !(floorplan && configuration),
            onClick: () => setStep(4),
          }}
        />
      </>
    );
  } else if (step === 4) {
    body = (
      <>
        <ReviewStep
          line={line}
          floorplan={floorplan}
          configuration={configuration}
          editable={editable}
          saving={saving}
          problem={staleNotice || meanwhileNotice}
          reasonField={saved.version === undefined ? null : changeReason.field}
          savedTags={saved.configuration?.tags ?? null}
          onExport={exportConfiguration}
          onSave={save}
          onGiveCodes={giveCodes}
        />
        <WizardNav back={{ label: w.backToCalibration, onClick: () => setStep(3) }} />
      </>
    );
  } else {
    body = (
      <>
        <p>{w.savedText(w.configurationName(line?.name ?? w.unknownLine))}</p>
        <div className="wizard-nav">
          <button type="button" className="btn btn-primary" onClick={startOver}>
            {w.configureAnother}
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => openMapping(lineId)}>
            {w.backToSelection}
          </button>
        </div>
      </>
    );
  }

  return (
    <section className="page floorplan-manager">
      <BreadcrumbBar />
      <h1 ref={pageHeading} tabIndex={-1}>
        {w.title}
      </h1>
      <StepIndicator step={step} />
      {confirm.dialog}
      {deleting && (
        <ReasonDialog
          {...deletionWords('floor plan')}
          subject={deleting.name}
          act={(reason) => deleteFloorplan(deleting._id, reason)}
          success={w.deleted}
          failure={w.deleteFailed}
          run={alertAction}
          onDone={() => deleted(deleting)}
          onClose={() => setDeleting(null)}
        />
      )}
      <h2 ref={heading} tabIndex={-1} className="wizard-step-heading">
        <span className="visually-hidden">{w.stepOf(step)}: </span>
        {wizardSteps[step - 1]}
      </h2>
      {body}
    </section>
  );
}
