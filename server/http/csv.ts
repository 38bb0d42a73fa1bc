// CSV exports (RFC 4180): CRLF line ends, fields with a comma, quote or line break quoted, quotes
// doubled. A text cell that a spreadsheet would run as a formula (starting with = + - @, tab or
// carriage return) gets a leading apostrophe (OWASP "CSV injection"); numbers are written as is.
// The file starts with a byte order mark: without it Excel on Windows reads it in the local code
// page and garbles Polish, Greek or Chinese names.
export type CsvCell = string | number | boolean | null;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvCell): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const line = (row: readonly CsvCell[]) => `${row.map(csvCell).join(',')}\r\n`;

/** The file, a batch of rows at a time: a long export never sits in memory whole. */
export async function* csvChunks(
  header: readonly string[],
  batches: AsyncIterable<readonly (readonly CsvCell[])[]>,
): AsyncGenerator<string> {
  yield `\ufeff${line(header)}`;
  for await (const rows of batches) yield rows.map(line).join('');
}
