/**
 * One byte per slot for marking a filter's hits (ListCollection `page`), shared by every collection of the process:
 * list queries run synchronously, one at a time, and each writes every byte it reads before reading it. Inferred,
 * measured (bench list-100k-varied): a new 100 KB array per filtered request over 100,000 SKUs lives outside V8's heap
 * until a collection frees it, and grew malloc's heap (RSS) by ~15 MB over a minute.
 */
let marks = new Uint8Array(0);

/** An array of at least `length` bytes, of unspecified content. */
export function slotMarks(length: number): Uint8Array {
  // A quarter more than asked, so a list growing one item at a time does not reallocate on every query.
  if (marks.length < length) marks = new Uint8Array(Math.ceil(length * 1.25));
  return marks;
}
