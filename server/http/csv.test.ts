import { describe, expect, it } from 'vitest';
import { toCsv } from './csv.ts';

describe('toCsv', () => {
  it('starts with a byte order mark, so Excel reads the file as UTF-8', () => {
    expect(toCsv(['Line', 'Operator'], [['Linia 1', 'Zoë Παπαδοπούλου 张伟']])).toBe(
      '\ufeffLine,Operator\r\nLinia 1,Zoë Παπαδοπούλου 张伟\r\n',
    );
  });
});
