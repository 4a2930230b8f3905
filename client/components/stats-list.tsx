/** The group's key figures (value over label), from the group introduction. */
import type { GroupIntroduction } from '../../shared/contract/entities.js';

export function StatsList({ stats, className = '' }: { stats: GroupIntroduction['stats']; className?: string }) {
  return (
    <ul className={`stats-list ${className}`.trim()}>
      {stats.map((s) => (
        <li key={s.label}>
          <strong>{s.value}</strong>
          <span>{s.label}</span>
        </li>
      ))}
    </ul>
  );
}
