// The committed demo dataset and its files, for tests that load the real demo (loadDemo).
import fs from 'node:fs';
import type { DemoDataset } from '../demo/dataset-types.ts';

export const dataset = JSON.parse(
  fs.readFileSync(new URL('../demo/dataset.json', import.meta.url), 'utf8'),
) as DemoDataset;
export const files = new URL('../demo/files/', import.meta.url).pathname;
