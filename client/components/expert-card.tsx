/**
 * An expert's card, on every page that shows one: portrait, name, title, hospital (a link to its
 * page) and specialty, linking to the profile, then how to see them: their clinic days and a call
 * to their hospital.
 */
import { Link } from 'react-router';
import type { ExpertSummary } from '../../shared/contract/entities.js';
import { expertHref } from '../../shared/site/href.js';
import { ClinicWeek } from './clinic-week.js';
import { ContentImage, standardSizes } from './content-image.js';
import { DoctorCall, HospitalLink } from './hospital-link.js';
import { Typeset } from '../typeset/typeset.js';

/**
 * An expert card's portrait: a column of four; beside the card's text on a phone. In the fluid
 * range a list's card (its grid `fill`) takes two columns under 52 em and three under 66; a row
 * of four or eight (`inRow`, the home page's) keeps two cards a row there, its portrait beside the
 * text under 66 em and above it, as a list's, under 52.
 */
const EXPERT_SIZES = standardSizes(
  '116px',
  ['(max-width: 832px) calc(50vw - 39px)', '(max-width: 1056px) calc(33.34vw - 38px)', 'min(25vw - 32px, 286px)'],
  '18vw',
);
const EXPERT_ROW_SIZES = standardSizes(
  '116px',
  ['(max-width: 832px) calc(50vw - 39px)', '(max-width: 1056px) calc(20vw - 15px)', 'min(25vw - 32px, 286px)'],
  '18vw',
);
/**
 * In the large-text mode's fluid layout (a list of experts): one card a row under 28 em, its
 * portrait beside the text in two fifths; two columns under 52 em, three under 66 em, then four.
 */
const EXPERT_LARGE_SIZES =
  '(max-width: 500px) 116px, (max-width: 629px) calc(40vw - 26px), (max-width: 1169px) calc(50vw - 44px), (max-width: 1484px) calc((100vw - 120px) / 3), (max-width: 1769px) calc((100vw - 148px) / 4), 410px';

interface ExpertCardProps {
  expert: ExpertSummary;
  priority?: boolean;
  /** In a row of four or eight (the home page's), not a list's grid. */
  inRow?: boolean;
  /** On its hospital's own page, which names the hospital already. */
  atHospital?: boolean;
}

export function ExpertCard({ expert, priority, inRow, atHospital }: ExpertCardProps) {
  return (
    <article className="card expert-card">
      <ContentImage
        className="expert-avatar media"
        image={expert.avatar}
        sizes={inRow ? EXPERT_ROW_SIZES : EXPERT_SIZES}
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
        {atHospital ? null : (
          <p className="expert-hospital">
            <HospitalLink name={expert.hospital} className="over-card" />
          </p>
        )}
        <p className="expert-specialty">
          <span className="label">擅长</span>
          <Typeset text={expert.specialty} />
        </p>
        <ClinicWeek schedule={expert.schedule} />
        <DoctorCall expert={expert} className="expert-book" />
      </div>
    </article>
  );
}
