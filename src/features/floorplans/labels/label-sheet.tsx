import { Dialog } from 'radix-ui';
import { useEffect, useId, useState } from 'react';
import type { Tag } from '../../../types/api.ts';
import { labelStrings as s } from '../strings.ts';
import './label-sheet.css';
import { qrImageUrl } from './qr-image.ts';
import { codeOf } from './tag-codes.ts';

export interface PrintLabelsProps {
  lineName: string;
  tags: readonly Tag[];
  /** How many of the tags' codes the saved configuration does not have yet (labels of them match nothing). */
  unsaved?: number;
}

interface Label {
  name: string;
  code: string;
}

/** Each code's image, or null when it cannot be a QR symbol (too long); undefined while drawing. */
type Images = ReadonlyMap<string, string | null>;

function useQrImages(codes: readonly string[]): Images | undefined {
  const key = codes.join('\n');
  const [images, setImages] = useState<{ key: string; images: Images }>();
  useEffect(() => {
    let current = true;
    const wanted = key === '' ? [] : [...new Set(key.split('\n'))];
    void Promise.allSettled(wanted.map(qrImageUrl)).then((results) => {
      const drawn = new Map(
        results.map((result, i) => [
          wanted[i] as string,
          result.status === 'fulfilled' ? result.value : null,
        ]),
      );
      if (current) setImages({ key, images: drawn });
    });
    return () => {
      current = false;
    };
  }, [key]);
  return images?.key === key ? images.images : undefined;
}

function LabelSheet({ lineName, tags, unsaved = 0 }: PrintLabelsProps) {
  const missingId = useId();
  const labels: Label[] = tags.flatMap((tag) => {
    const code = codeOf(tag);
    return code ? [{ name: tag.name, code }] : [];
  });
  const missing = tags.filter((tag) => !codeOf(tag));
  const images = useQrImages(labels.map((label) => label.code));

  return (
    <>
      <header className="label-sheet-header label-sheet-screen">
        <Dialog.Title className="dialog-title">{s.sheetTitle(lineName)}</Dialog.Title>
        <div className="actions">
          <button
            type="button"
            className="btn btn-primary"
            disabled={labels.length === 0 || images === undefined}
            onClick={() => window.print()}
          >
            {s.print}
          </button>
          <Dialog.Close className="btn btn-secondary">{s.close}</Dialog.Close>
        </div>
      </header>
      <div className="label-sheet-screen label-sheet-notes">
        <p>{labels.length === 0 ? s.noLabels : s.sheetHint}</p>
        {unsaved > 0 && <p className="notice notice-caution">{s.unsaved(unsaved)}</p>}
        {labels.length > 0 && images === undefined && <p role="status">{s.drawing}</p>}
      </div>
      <ul className="qr-labels">
        {labels.map((label, index) => {
          const image = images?.get(label.code);
          return (
            // Two tags may share a code (the review step warns): the place keeps them apart.
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is rebuilt whole, never reordered
            <li key={index} className="qr-label">
              {image ? (
                <img className="qr-label-image" src={image} alt={s.qrAlt(label.name)} />
              ) : (
                <span className="qr-label-image qr-label-placeholder">
                  {image === null && s.tooLong}
                </span>
              )}
              <bdi className="qr-label-name">{label.name}</bdi>
              <bdi className="qr-label-line">{lineName}</bdi>
              <span className="qr-label-code">{label.code}</span>
            </li>
          );
        })}
      </ul>
      {missing.length > 0 && (
        <section className="label-sheet-screen label-sheet-missing" aria-labelledby={missingId}>
          <h3 id={missingId}>{s.withoutCode}</h3>
          <ul>
            {missing.map((tag, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: names may repeat; the list is not reordered
              <li key={index}>
                <bdi>{tag.name}</bdi>: {s.noCode}
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

/**
 * 'Print QR labels' and the sheet it opens: a full-screen dialog with one label per tag that has a
 * code (its QR symbol, name, line and code) and a Print button. Its print stylesheet prints the
 * labels alone, so no route is needed. The trigger gets the focus back on close.
 */
export function PrintLabels(props: PrintLabelsProps) {
  return (
    <Dialog.Root>
      <Dialog.Trigger className="btn btn-secondary">{s.printLabels}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="label-sheet" aria-describedby={undefined}>
          <LabelSheet {...props} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
