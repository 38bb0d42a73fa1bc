import { useRef, useState } from 'react';
import { isBlank } from '../../../server/schemas/blank.ts';
import { AppDialog } from '../../components/app-dialog.tsx';
import { TextField } from '../../components/field.tsx';
import { CardGrid, RecordCard, RecordField } from '../../components/record-card.tsx';
import { StatusTag } from '../../components/tag.tsx';
import { deviceMessages } from '../../config/entity-messages.ts';
import { useFieldErrors } from '../../hooks/use-field-errors.ts';
import { useQrCamera } from '../../hooks/use-qr-camera.ts';
import { ApiError } from '../../lib/api-client.ts';
import { toastError, toastSuccess } from '../../stores/toasts.ts';
import type { Device } from '../../types/api.ts';
import { registerDevice } from './api/register-device.ts';
import { operatorStrings as s } from './strings.ts';

/**
 * Reads one device label with the camera (or typed) and registers it. A decoded code waits for
 * the operator to confirm it (Register) or scan again: a line's checkpoint QR code in view must not
 * be registered as a device by accident. An empty or blank typed code is named under the field.
 */
function RegisterDeviceDialog({
  onClose,
  onRegistered,
}: {
  onClose: () => void;
  onRegistered: () => void;
}) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [typed, setTyped] = useState('');
  const fieldErrors = useFieldErrors<'code'>();
  // The code the camera read, shown until the operator registers it or scans again.
  const [scanned, setScanned] = useState<string | null>(null);
  const waiting = useRef(false);
  const busy = useRef(false);
  const register = async (code: string) => {
    if (busy.current) return;
    busy.current = true;
    try {
      const device = await registerDevice(code.trim());
      toastSuccess(`${s.deviceRegistered}: ${device.name}`);
      onRegistered();
      onClose();
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) {
        const reason = error instanceof ApiError ? error.serverMessage : null;
        toastError(reason ? `${s.registerFailed}: ${reason}` : s.registerFailed);
      }
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
  };
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
              <p>
                {s.scannedCode}: <strong>{scanned}</strong>
              </p>
              <p>{s.confirmScanned}</p>
            </div>
          )}
        </div>
        {scanned !== null && (
          <div className="capture-controls">
            <button
              type="button"
              className="btn btn-primary btn-large"
              aria-label={`${s.register} ${scanned}`}
              onClick={() => void register(scanned)}
            >
              {s.register}
            </button>
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
            if (isBlank(typed)) {
              fieldErrors.fail('code', s.codeRequired);
              return;
            }
            void register(typed);
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
            {s.register}
          </button>
        </form>
      </div>
    </AppDialog>
  );
}

export function DevicesSection({
  devices,
  loading,
  reload,
}: {
  devices: readonly Device[] | null;
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
        <RegisterDeviceDialog onClose={() => setScanning(false)} onRegistered={reload} />
      )}
    </section>
  );
}
