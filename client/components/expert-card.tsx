/** An expert's card: portrait, name, title, specialty and hospital, linking to the profile, and a way to book. */
import { Link } from 'react-router';
import type { ExpertSummary } from '../../shared/contract/entities.js';
import { bookingHref, expertHref } from '../../shared/site/href.js';
import { ContentImage } from './content-image.js';
import { Typeset } from '../typeset/typeset.js';

/** An expert card's portrait: a column of four; beside the card's text on a phone. */
const EXPERT_SIZES = '(max-width: 500px) 116px, 18vw';
/** In the large-text mode's fluid layout (a list of experts): two columns under 52 em, three under 66 em, then four. */
const EXPERT_LARGE_SIZES =
  '(max-width: 500px) 116px, (max-width: 1169px) calc(50vw - 44px), (max-width: 1484px) calc((100vw - 120px) / 3), (max-width: 1769px) calc((100vw - 148px) / 4), 410px';

export function ExpertCard({ expert, priority }: { expert: ExpertSummary; priority?: boolean }) {
  return (
    <article className="card expert-card">
      <ContentImage
        className="expert-avatar media"
        image={expert.avatar}
        sizes={EXPERT_SIZES}
        largeSizes={EXPERT_LARGE_SIZES}
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
          <Typeset text={expert.specialty} />
        </p>
        {/* Above the card's own link: the booking section of the contact page (the site takes no bookings itself). */}
        <Link to={bookingHref()} className="expert-book">
          预约<span className="sr-only">{expert.name}</span>
        </Link>
      </div>
    </article>
  );
}
