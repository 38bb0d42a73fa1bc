import { useEffect, useRef, useState } from 'react';
import { isBlank } from '../../../server/schemas/blank.ts';
import { AppDialog } from '../../components/app-dialog.tsx';
import { TextField } from '../../components/field.tsx';
import { CardGrid, RecordCard, RecordField } from '../../components/record-card.tsx';
import { StatusTag } from '../../components/tag.tsx';
import { deviceMessages } from '../../config/entity-messages.ts';
import { useFieldErrors } from '../../hooks/use-field-errors.ts';
import { useQrCamera } from '../../hooks/use-qr-camera.ts';
import { ApiError } from '../../lib/api-client.ts';
import { failureText } from '../../lib/run-action.ts';
import { toastSuccess } from '../../stores/toasts.ts';
import type { Device, MyLine } from '../../types/api.ts';
import { type CheckpointOf, getCheckpointCodes } from './api/get-checkpoint-codes.ts';
import { registerDevice } from './api/register-device.ts';
import { registerRefusal, serialProblem } from './device-code.ts';
import { operatorStrings as s } from './strings.ts';

/**
 * The checkpoint codes of the operator's lines and the others' (null until loaded), so a line's
 * tag read or typed as a device code is named at once.
 */
function useCheckpointCodes(lines: readonly MyLine[] | null) {
  const [codes, setCodes] = useState<ReadonlyMap<string, CheckpointOf> | null>(null);
  useEffect(() => {
    if (!lines?.length) return;
    // Every answer lists the other lines' codes: a line without tags is asked only if none has any.
    const configured = lines.filter((line) => line.hasConfiguration);
    let current = true;
    getCheckpointCodes((configured.length ? configured : lines.slice(0, 1)).map((l) => l.line._id))
      .then((found) => {
        if (current) setCodes(found);
      })
      // Without them the server still refuses a checkpoint's code, and says so.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [lines]);
  return codes;
}

/**
 * Reads one device label with the camera (or typed) and registers it. A decoded code waits for
 * the operator to confirm it (Register scanned device) or scan again: a line's checkpoint QR code
 * in view must not be registered as a device by accident, and one known as a checkpoint, or not a
 * device serial, is said at once instead. Problems of a typed code are named under the field, the
 * server's refusals too: a toast at the bottom would cover the dialog on a phone.
 */
function RegisterDeviceDialog({
  lines,
  onClose,
  onRegistered,
}: {
  lines: readonly MyLine[] | null;
  onClose: () => void;
  onRegistered: () => void;
}) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [typed, setTyped] = useState('');
  const fieldErrors = useFieldErrors<'code'>();
  // The code the camera read, shown until the operator registers it or scans again.
  const [scanned, setScanned] = useState<string | null>(null);
  // The server's refusal of the scanned code, shown with it until the next scan.
  const [scanRefused, setScanRefused] = useState<string | null>(null);
  const checkpoints = useCheckpointCodes(lines);
  const waiting = useRef(false);
  const busy = useRef(false);

  /** Why `code` is not sent: a checkpoint's, or no device serial (`say` puts the rule in words). */
  const problemOf = (code: string, say: (rule: string) => string) => {
    const checkpoint = checkpoints?.get(code.trim());
    if (checkpoint) return s.checkpointCode(checkpoint.tag, checkpoint.line);
    const rule = serialProblem(code);
    return rule === null ? null : say(rule);
  };
  const register = async (code: string, refused: (text: string) => void) => {
    if (busy.current) return;
    busy.current = true;
    try {
      const device = await registerDevice(code.trim());
      toastSuccess(`${s.deviceRegistered}: ${device.name}`);
      onRegistered();
      onClose();
    } catch (error) {
      const text =
        error instanceof ApiError && error.status === 400 && error.serverMessage
          ? registerRefusal(error.serverMessage)
          : failureText(s.registerFailed, error);
      if (text !== null) refused(text);
      busy.current = false;
    }
  };
  const camera = useQrCamera(videoRef, (codes) => {
    const code = codes.find((c) => !isBlank(c));
    if (waiting.current || code === undefined) return;
    waiting.current = true;
    setScanned(code);
  });
  const scanAgain = () => {
    waiting.current = false;
    setScanned(null);
    setScanRefused(null);
  };
  const scanProblem =
    scanned === null ? null : (problemOf(scanned, s.notDeviceLabel) ?? scanRefused);
  return (
    <AppDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={s.registerDevice}
      width="500px"
    >
      <div className="capture-step">
        <p>{s.scanDevice}</p>
        <div className="capture-preview">
          <video
            ref={videoRef}
            aria-label={s.scanDevice}
            muted
            playsInline
            autoPlay
            tabIndex={-1}
          />
        </div>
        {camera.problem && <p className="capture-problem">{camera.problem}</p>}
        <div role="status">
          {scanned !== null && (
            <div className="scanned-code">
              <p className="wrap-anywhere">
                {s.scannedCode}: <strong>{scanned}</strong>
              </p>
              {scanProblem === null ? (
                <p>{s.confirmScanned}</p>
              ) : (
                <p className="capture-problem">{scanProblem}</p>
              )}
            </div>
          )}
        </div>
        {scanned !== null && (
          <div className="register-device-actions">
            {scanProblem === null && (
              <button
                type="button"
                className="btn btn-primary btn-large"
                aria-label={`${s.registerScanned} ${scanned}`}
                onClick={() => void register(scanned, setScanRefused)}
              >
                {s.registerScanned}
              </button>
            )}
            <button type="button" className="btn btn-secondary btn-large" onClick={scanAgain}>
              {s.scanAgain}
            </button>
          </div>
        )}
        <form
          className="form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const problem = isBlank(typed) ? s.codeRequired : problemOf(typed, s.typedCodeProblem);
            if (problem !== null) {
              fieldErrors.fail('code', problem);
              return;
            }
            void register(typed, (text) => fieldErrors.fail('code', text));
          }}
        >
          <TextField
            label={s.typeCode}
            value={typed}
            onChange={(value) => {
              setTyped(value);
              if (!isBlank(value)) fieldErrors.clear();
            }}
            {...fieldErrors.textField('code')}
          />
          <button type="submit" className="btn btn-primary btn-large">
            {s.registerTyped}
          </button>
        </form>
      </div>
    </AppDialog>
  );
}

export function DevicesSection({
  devices,
  lines,
  loading,
  reload,
}: {
  devices: readonly Device[] | null;
  /** The operator's lines: their checkpoint codes are named as such when scanned. */
  lines: readonly MyLine[] | null;
  loading: boolean;
  reload: () => void;
}) {
  const [scanning, setScanning] = useState(false);
  return (
    <section aria-labelledby="devices-heading">
      <h2 id="devices-heading">{s.devicesHeading}</h2>
      <div className="tab-toolbar">
        <button
          type="button"
          className="btn btn-primary btn-large"
          onClick={() => setScanning(true)}
        >
          {s.registerDevice}
        </button>
      </div>
      {devices?.length === 0 ? (
        <p className="muted">{s.noDevices}</p>
      ) : (
        <CardGrid
          items={devices}
          noun={deviceMessages.noun}
          loading={loading}
          render={(device) => (
            <RecordCard
              key={device._id}
              title={device.name}
              tags={<StatusTag status={device.status} />}
            >
              <RecordField label={s.type}>{device.type ?? s.unknown}</RecordField>
              <RecordField label="QR">{device.qrCode}</RecordField>
            </RecordCard>
          )}
        />
      )}
      {scanning && (
        <RegisterDeviceDialog
          lines={lines}
          onClose={() => setScanning(false)}
          onRegistered={reload}
        />
      )}
    </section>
  );
}
