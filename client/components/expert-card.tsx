/** An expert's card: portrait, name, title, specialty and hospital, linking to the profile, and a way to book. */
import { Link } from 'react-router';
import type { ExpertSummary } from '../../shared/contract/entities.js';
import { bookingHref, expertHref } from '../href.js';
import { ContentImage } from './content-image.js';
import { typeset } from '../typeset.js';

/** An expert card's slot: a column of four, two on a phone. */
const EXPERT_SIZES = '(max-width: 500px) 50vw, 18vw';

export function ExpertCard({ expert, priority }: { expert: ExpertSummary; priority?: boolean }) {
  return (
    <article className="card expert-card">
      <ContentImage
        className="expert-avatar media"
        image={expert.avatar}
        sizes={EXPERT_SIZES}
        alt={expert.name}
        width={300}
        height={360}
        priority={priority}
      />
      <div className="expert-body">
        <h3 className="expert-name">
          <Link to={expertHref(expert.id)} className="stretched-link">
            {expert.name}
          </Link>
          <span className="expert-title">{expert.title}</span>
        </h3>
        <p className="expert-hospital">{expert.hospital}</p>
        <p className="expert-specialty">
          <span className="label">擅长</span>
          {typeset(expert.specialty)}
        </p>
        {/* Above the card's own link: the booking section of the contact page (the site takes no bookings itself). */}
        <Link to={bookingHref()} className="expert-book">
          预约<span className="sr-only">{expert.name}</span>
        </Link>
      </div>
    </article>
  );
}
