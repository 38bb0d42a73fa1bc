import { useRef, useState } from 'react';
import { AppDialog } from '../../components/app-dialog.tsx';
import { TextField } from '../../components/field.tsx';
import { CardGrid, RecordCard, RecordField } from '../../components/record-card.tsx';
import { StatusTag } from '../../components/tag.tsx';
import { useQrCamera } from '../../hooks/use-qr-camera.ts';
import { ApiError } from '../../lib/api-client.ts';
import { toastError, toastSuccess } from '../../stores/toasts.ts';
import type { Device } from '../../types/api.ts';
import { registerDevice } from './api/register-device.ts';
import { operatorStrings as s } from './strings.ts';

/** Reads one device label with the camera (or typed) and registers it. */
function RegisterDeviceDialog({
  onClose,
  onRegistered,
}: {
  onClose: () => void;
  onRegistered: () => void;
}) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [typed, setTyped] = useState('');
  const busy = useRef(false);
  const register = async (code: string) => {
    if (busy.current || !code.trim()) return;
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
  const camera = useQrCamera(videoRef, (codes) => void register(codes[0] ?? ''));
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
          <video ref={videoRef} aria-label={s.scanDevice} muted playsInline autoPlay />
        </div>
        {camera.problem && <p className="capture-problem">{camera.problem}</p>}
        <form
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            void register(typed);
          }}
        >
          <TextField label={s.typeCode} value={typed} onChange={setTyped} />
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
