import { describe, expect, it } from 'vitest';
import { csvChunks } from './csv.ts';

async function* batches(...rows: string[][][]) {
  yield* rows;
}

describe('csvChunks', () => {
  it('starts with a byte order mark, so Excel reads the file as UTF-8', async () => {
    let file = '';
    for await (const chunk of csvChunks(
      ['Line', 'Operator'],
      batches([['Linia 1', 'Zoë Παπαδοπούλου 张伟']]),
    )) {
      file += chunk;
    }
    expect(file).toBe('\ufeffLine,Operator\r\nLinia 1,Zoë Παπαδοπούλου 张伟\r\n');
  });
});
