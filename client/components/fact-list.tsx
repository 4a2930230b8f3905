/** A description list of facts: each term and its detail in a <div> of their own (for layout). */
import type { ReactNode } from 'react';

export type Fact = readonly [term: string, detail: ReactNode];

export function FactList({ facts, className = 'facts' }: { facts: readonly Fact[]; className?: string }) {
  return (
    <dl className={className}>
      {facts.map(([term, detail]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{detail}</dd>
        </div>
      ))}
    </dl>
  );
}
