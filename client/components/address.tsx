/**
 * A postal address as drawn: it breaks at its spaces and between its phrases (广州市/天河区), not
 * inside a name (明瞳大/厦), and each number keeps its unit (1288 号, 18 层).
 */
import { Typeset } from '../typeset/typeset.js';

export function Address({ text }: { text: string }) {
  return <Typeset text={text} />;
}
