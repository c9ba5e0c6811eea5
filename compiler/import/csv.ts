/**
 * A small RFC 4180 reader: comma-separated, fields optionally in double quotes (a quote inside is
 * doubled, commas and newlines inside quotes are data), `\n` or `\r\n` line ends. Rows come back as
 * objects keyed by the header row, with their 1-based line number in the file.
 *
 * @example parseCsv('a,b\n1,"x, y"\n') // [{ line: 2, values: { a: '1', b: 'x, y' } }]
 */
export interface CsvRow {
  line: number;
  values: Record<string, string>;
}

export function parseCsv(text: string): CsvRow[] {
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  const src = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < src.length; i += 1) {
    const ch = src[i];
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') {
        quoted = false;
      } else {
        if (ch === '\n') line += 1;
        field += ch;
      }
    } else if (ch === '"' && field === '') {
      quoted = true;
    } else if (ch === ',') {
      fields.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && src[i + 1] === '\n') i += 1;
      fields.push(field);
      records.push({ line: rowLine, fields });
      fields = [];
      field = '';
      line += 1;
      rowLine = line;
    } else {
      field += ch;
    }
  }
  if (field !== '' || fields.length > 0) {
    fields.push(field);
    records.push({ line: rowLine, fields });
  }
  const nonEmpty = records.filter((r) => !(r.fields.length === 1 && r.fields[0] === ''));
  if (nonEmpty.length === 0) return [];
  const header = nonEmpty[0].fields;
  return nonEmpty.slice(1).map((r) => ({
    line: r.line,
    values: Object.fromEntries(header.map((name, i) => [name, r.fields[i] ?? ''])),
  }));
}
