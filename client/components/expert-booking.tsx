/**
 * Under an expert's card, how to see them: their clinic days and a call to their hospital. The
 * home page's cards, a first view's scripts, carry only the call: the days are a step away, on
 * the expert's page and in the finder.
 */
import type { ExpertSummary } from '../../shared/contract/entities.js';
import { ClinicWeek } from './clinic-week.js';
import { DoctorCall } from './hospital-link.js';

export function ExpertBooking({ expert }: { expert: ExpertSummary }) {
  return (
    <>
      <ClinicWeek schedule={expert.schedule} />
      <DoctorCall expert={expert} className="expert-book" />
    </>
  );
}
