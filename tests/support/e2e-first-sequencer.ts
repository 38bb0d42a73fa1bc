// The order test files start in: the end-to-end files first. Each takes one to two minutes against
// seconds for most others, and on a fresh clone (no timings cached) Vitest starts the larger files
// first, which once left route-access, a small file, to run alone at the end of `npm test`.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const isEndToEnd = (file: TestSpecification) => file.moduleId.includes('/tests/e2e/');

export class EndToEndFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter(isEndToEnd), ...sorted.filter((file) => !isEndToEnd(file))];
  }
}
