import type {
  Floorplan,
  FloorplanConfigSave,
  FloorplanConfiguration,
  LineClearance,
} from '../../../types/api.ts';
import { wizardStrings as w } from '../strings.ts';

/**
 * What Save Configuration sends (spec §7), and what Export Config downloads: the same record, so
 * an exported file names its line and can be posted back as it is.
 */
export function configurationRecord(
  line: Pick<LineClearance, '_id' | 'name'>,
  floorplan: Pick<Floorplan, '_id'> | null,
  configuration: FloorplanConfiguration,
): FloorplanConfigSave {
  return {
    lineClearanceId: line._id,
    name: w.configurationName(line.name),
    ...(floorplan ? { floorplanId: floorplan._id } : {}),
    configuration,
  };
}

export type Checked<T> = { problem: string } | ({ problem: null } & T);

/** Spec §5: a save needs a configuration and a chosen line clearance, in that order. */
export function saveRequest(
  line: Pick<LineClearance, '_id' | 'name'> | null,
  floorplan: Pick<Floorplan, '_id'> | null,
  configuration: FloorplanConfiguration | null,
): Checked<{ record: FloorplanConfigSave }> {
  if (!configuration) return { problem: w.noConfigurationToSave };
  if (!line) return { problem: w.noLineSelected };
  return { problem: null, record: configurationRecord(line, floorplan, configuration) };
}

/** Spec §5: an export needs a configuration. */
export function exportRequest(
  line: Pick<LineClearance, '_id' | 'name'>,
  floorplan: Pick<Floorplan, '_id'> | null,
  configuration: FloorplanConfiguration | null,
): Checked<{ fileName: string; record: FloorplanConfigSave }> {
  if (!configuration) return { problem: w.noConfigurationToExport };
  return {
    problem: null,
    fileName: exportFileName(line.name),
    record: configurationRecord(line, floorplan, configuration),
  };
}

/** 'Blister Line 1' → 'blister-line-1-floorplan-configuration.json'. */
export function exportFileName(lineName: string): string {
  const slug = lineName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${slug || 'line'}-floorplan-configuration.json`;
}

/** Hands a JSON document to the browser as a download. */
export function downloadJson(fileName: string, value: unknown): void {
  const url = URL.createObjectURL(
    new Blob([`${JSON.stringify(value, null, 2)}\n`], { type: 'application/json' }),
  );
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled, so the download has its bytes.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
