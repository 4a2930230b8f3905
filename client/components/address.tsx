/**
 * A postal address as drawn: it breaks at its spaces (between road, number and building), not
 * inside a name (明瞳大/厦), and each number keeps its unit (1288 号, 18 层).
 */
import { typeset } from '../typeset.js';

export function Address({ text }: { text: string }) {
  return <span className="keep-words">{typeset(text)}</span>;
}
