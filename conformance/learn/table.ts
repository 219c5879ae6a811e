import type { DecisionFile, LearnedListField, RecordShape } from '../../spec/decisions/index.js';

/** Longest value shown in a row of the console table (the file holds it whole). */
const MAX_SHOWN = 140;

const isShape = (v: unknown): v is RecordShape =>
  typeof v === 'object' && v !== null && Array.isArray((v as RecordShape).fields);
const isTable = (v: unknown): v is LearnedListField[] =>
  Array.isArray(v) && v.every((f) => typeof f === 'object' && f !== null && 'query' in f);

/** A value as a row shows it: records by their members (`?` when some records lack it), lists by their fields. */
function show(v: unknown): string {
  let text: string;
  if (typeof v === 'string') text = v;
  else if (isShape(v)) text = `{${v.fields.map((f) => `${f.name}${f.always ? '' : '?'}`).join(', ')}}`;
  else if (isTable(v))
    text = `[${v.map((f) => `${f.query}${f.operators.length ? `(${f.operators.length} ops)` : ''}${f.sortable ? ' sorts' : ''}`).join(', ')}]`;
  else text = JSON.stringify(v);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

/** The console table: "inferred -> observed", the points that differ first, then those not observed. */
export function decisionTable(file: DecisionFile): string {
  const differ = file.decisions.filter((d) => d.differs);
  const rows = file.decisions.map(
    (d) => `${d.differs ? 'DIFFERS ' : 'same    '} ${d.id}: ${show(d.inferred)} -> ${show(d.observed)}`,
  );
  const width = Math.max(0, ...rows.map((r) => r.length));
  return [
    `opsapi learn: ${file.target}: ${file.decisions.length} decisions observed, ${differ.length} differ from the contract, ${file.notObserved.length} not observed`,
    `         point: inferred -> observed`,
    ...rows,
    ...(file.notObserved.length ? ['-'.repeat(Math.min(width, 100)), 'not observed:'] : []),
    ...file.notObserved.map((n) => `  ${n.id}: ${n.reason}`),
    '',
  ].join('\n');
}
