import { AppDialog } from '../../components/app-dialog.tsx';
import type { PathTag } from './path-player/path-player.tsx';
import { videoStrings as s } from './strings.ts';

export interface TagDetailsModalProps {
  tag: PathTag | null;
  onClose(): void;
}

function shown(value: string | number | undefined | null): string {
  return value === undefined || value === null || value === '' ? s.notSet : String(value);
}

/** Spec §2 tag details modal: every field of the tag (§3); the × button or the backdrop closes it. */
export function TagDetailsModal({ tag, onClose }: TagDetailsModalProps) {
  return (
    <AppDialog
      open={tag !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={tag ? `${s.tagDetails}: ${tag.name}` : s.tagDetails}
      width="450px"
    >
      {tag && (
        <dl className="record-fields">
          {(
            [
              ['Name', shown(tag.name)],
              ['QR code', shown(tag.qrCode)],
              ['Description', shown(tag.description)],
              ['ID', shown(tag.id)],
              ['Type', shown(tag.type)],
              ['Status', shown(tag.status)],
              ['Position', `x ${tag.x}, y ${tag.y}`],
            ] as const
          ).map(([label, value]) => (
            <div className="record-field" key={label}>
              <dt>{label}</dt>
              <dd className="wrap-anywhere">{value}</dd>
            </div>
          ))}
          <div className="record-field">
            <dt>Colour</dt>
            <dd>
              {tag.color ? (
                <>
                  <span
                    className="va-swatch"
                    style={{ background: tag.color }}
                    aria-hidden="true"
                  />
                  {tag.color}
                </>
              ) : (
                s.notSet
              )}
            </dd>
          </div>
        </dl>
      )}
    </AppDialog>
  );
}
