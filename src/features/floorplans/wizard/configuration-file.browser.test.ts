import { describe, expect, it } from 'vitest';
import type { FloorplanConfiguration } from '../../../types/api.ts';
import { canChangeLine } from '../permissions.ts';
import { exportFileName, exportRequest, saveRequest } from './configuration-file.ts';
import { failureText } from './failure-alert.ts';

const line = { _id: 'c00000000000000000000001', name: 'Blister Line 1' };
const floorplan = { _id: 'f00000000000000000000001' };
const configuration: FloorplanConfiguration = {
  displaySize: { width: 800, height: 500 },
  hotZones: [],
  tags: [],
  cameras: [],
  coordinateSystem: { pixelsPerMeter: 50 },
};

describe('save and export (spec §5, §7)', () => {
  it('saves the line, its name plus " Floorplan Configuration", the floor plan and the configuration', () => {
    expect(saveRequest(line, floorplan, configuration)).toEqual({
      problem: null,
      record: {
        lineClearanceId: line._id,
        name: 'Blister Line 1 Floorplan Configuration',
        floorplanId: floorplan._id,
        configuration,
      },
    });
  });

  it('needs a configuration first, then a line clearance', () => {
    expect(saveRequest(null, null, null)).toEqual({
      problem: 'No configuration to save. Please complete the calibration first.',
    });
    expect(saveRequest(null, floorplan, configuration)).toEqual({
      problem: 'No line clearance selected. Please select a line clearance first.',
    });
    expect(exportRequest(line, floorplan, null)).toEqual({
      problem: 'No configuration to export',
    });
  });

  it('exports the saved record under a file name from the line', () => {
    expect(exportRequest(line, null, configuration)).toEqual({
      problem: null,
      fileName: 'blister-line-1-floorplan-configuration.json',
      record: {
        lineClearanceId: line._id,
        name: 'Blister Line 1 Floorplan Configuration',
        configuration,
      },
    });
    expect(exportFileName('Línea de envasado Nº 2 / Sala B')).toBe(
      'linea-de-envasado-no-2-sala-b-floorplan-configuration.json',
    );
    expect(exportFileName('???')).toBe('line-floorplan-configuration.json');
  });

  it('words unexpected failures with their cause', () => {
    expect(failureText('Save failed', new Error('boom'))).toBe('Save failed: boom');
  });
});

describe('who may change a line (docs/permissions.md)', () => {
  const me = 'a00000000000000000000001';
  it('lets admins and factory managers change every line, an LC manager only its own', () => {
    expect(canChangeLine(['admin'], me, { managerId: null })).toBe(true);
    expect(canChangeLine(['factory_manager'], me, { managerId: 'other' })).toBe(true);
    expect(canChangeLine(['lc_manager'], me, { managerId: me })).toBe(true);
    expect(canChangeLine(['lc_manager'], me, { managerId: 'other' })).toBe(false);
    expect(canChangeLine(['lc_manager'], null, { managerId: null })).toBe(false);
    expect(canChangeLine(['audit'], me, { managerId: me })).toBe(false);
    expect(canChangeLine(['audit', 'lc_manager'], me, { managerId: me })).toBe(true);
  });
});
